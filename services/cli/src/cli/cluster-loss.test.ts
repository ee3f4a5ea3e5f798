import { describe, expect, it } from "vitest";
import { clusterLossMessage, isNatsTimeout } from "./cluster-loss.js";

describe("clusterLossMessage (issue #13)", () => {
  it("says what was lost, for how long, and how to continue", () => {
    expect(
      clusterLossMessage(
        { kind: "connection_lost", server: "127.0.0.1:4222", forMs: 10_000 },
        "k9",
      ),
    ).toBe(
      "· lost the connection to NATS at 127.0.0.1:4222 (no answer for 10 s): the cluster stopped? " +
        "The session's run goes on when it is back (`npx troupe dev`); continue with `npx troupe chat k9`",
    );
    expect(
      clusterLossMessage(
        { kind: "timeout", server: "127.0.0.1:4222", operation: "sending the line" },
        "k9",
      ),
    ).toBe(
      "· NATS at 127.0.0.1:4222 did not answer in time (sending the line timed out): the cluster " +
        "stopped? Start it (`npx troupe dev`), then continue with `npx troupe chat k9`",
    );
    expect(clusterLossMessage({ kind: "no_host", forMs: 20_000 }, "k9")).toBe(
      "· no host answered in 20 s: is `npx troupe dev` running? The line is stored in the " +
        "session's inbox and is answered once a host runs; continue with `npx troupe chat k9`",
    );
    expect(clusterLossMessage({ kind: "no_streams", server: "127.0.0.1:4222" }, "k9")).toBe(
      "· no Troupe host has run against NATS at 127.0.0.1:4222 (the session streams are missing): " +
        "start one (`npx troupe dev`, or check `--prefix`), then continue with `npx troupe chat k9`",
    );
  });
});

describe("isNatsTimeout", () => {
  it("finds nats.js's TimeoutError, also as a cause, and nothing else", () => {
    const timeout = Object.assign(new Error("timeout"), { name: "TimeoutError" });
    expect(isNatsTimeout(timeout)).toBe(true);
    expect(isNatsTimeout(new Error("publish failed", { cause: timeout }))).toBe(true);
    expect(isNatsTimeout(new Error("stream not found"))).toBe(false);
    expect(isNatsTimeout("timeout")).toBe(false);
    expect(isNatsTimeout(undefined)).toBe(false);
  });
});
