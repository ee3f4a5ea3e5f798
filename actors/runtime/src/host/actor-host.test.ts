import { fromPromise, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { UnsupportedMachineActionError, defineActorKind } from "@troupe/step";
import { ActorHost } from "./actor-host.js";

const invoking = defineActorKind({
  kind: "fetcher",
  machine: setup({
    actors: { fetchUser: fromPromise(() => Promise.resolve({ name: "Ada" })) },
  }).createMachine({
    id: "fetcher",
    initial: "loading",
    states: { loading: { invoke: { src: "fetchUser", onDone: "done" } }, done: {} },
  }),
  version: "1",
  messageSchemas: {},
});

describe("ActorHost.start checks every kind's machine", () => {
  it("ActorHost.start rejects with UnsupportedMachineActionError before it connects to anything", async () => {
    // Nothing listens on port 1: had the host tried to connect, the error would be a connection error.
    const started = ActorHost.start({
      nats: "nats://127.0.0.1:1",
      redis: "redis://127.0.0.1:1",
      kinds: [invoking],
    });
    const error: unknown = await started.catch((caught: unknown) => caught);
    expect(UnsupportedMachineActionError.isInstance(error)).toBe(true);
    expect((error as UnsupportedMachineActionError).message).toMatch(
      /^actor kind "fetcher": state "loading" uses invoke of "fetchUser"/,
    );
  });
});
