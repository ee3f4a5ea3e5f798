import { fromPromise, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { UnsupportedMachineActionError, defineActorKind } from "@troupe/step";
import type { JournalSource } from "./journal-reader.js";
import { replayActor } from "./replay-actor.js";
import type { SnapshotStore } from "@troupe/stores/internal";

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

describe("replayActor checks the kind's machine", () => {
  it("replayActor rejects with UnsupportedMachineActionError before it reads the journal or the store", async () => {
    const untouched = new Proxy(
      {},
      {
        get: (_target, property) => {
          throw new Error(`replayActor read ${String(property)} before checking the machine`);
        },
      },
    );
    const replay = replayActor(
      {
        ...(untouched as JournalSource),
        snapshots: untouched as SnapshotStore,
        definition: invoking,
      },
      { kind: "fetcher", id: "f1" },
    );
    const error: unknown = await replay.catch((caught: unknown) => caught);
    expect(UnsupportedMachineActionError.isInstance(error)).toBe(true);
    expect((error as UnsupportedMachineActionError).statePath).toBe("loading");
  });
});
