import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

// Issue #11, "Public inputs are strict": plain publishes with a bare NATS
// client to troupe.session.<id>.in, answered on the session's events.
describe("strict public inputs", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    const host = await cluster.startHost({}, { entry: AGENT_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const publish = (sessionId: string, body: string | Uint8Array) =>
    cluster.js.publish(`troupe.session.${sessionId}.in`, body);

  it("an empty or blank run.steer is rejected naming payload.text: no extra model call, the answer stands, the session state is untouched", async () => {
    const log = followSession(cluster.nats, "steer-1");
    await publish("steer-1", '{"type":"user.message","text":"/slow 60"}');
    await log.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 3,
      15_000,
      "three deltas",
    );
    const before = (await cluster.snapshots.load("session/steer-1"))!.record;
    await publish("steer-1", '{"type":"run.steer","text":""}');
    await publish("steer-1", '{"type":"run.steer","text":" \\n "}');
    await log.until(
      (events) => events.filter((event) => event.type === "message.rejected").length === 2,
      15_000,
      "two rejections",
    );
    const after = (await cluster.snapshots.load("session/steer-1"))!.record;
    expect(after.state).toEqual(before.state);
    expect(after.generation).toBe(before.generation + 2);

    for (const rejection of log.payloads("message.rejected")) {
      expect(rejection).toMatchObject({ code: "decode_failed", type: "run.steer" });
      expect(rejection["reason"]).toMatch(/^The run\.steer body is invalid: text: /);
      expect((rejection["issues"] as { path: unknown[] }[])[0]!.path).toEqual(["payload", "text"]);
    }
    const completed = await log.first("run.completed", undefined, 30_000);
    expect(completed).toMatchObject({ runId: "r1", text: SLOW_ANSWER });
    const modelCalls = new Set(log.payloads("run.delta").map((delta) => delta["modelCallId"]));
    expect([...modelCalls]).toEqual(["r1.m1"]);
    log.stop();
  });

  it('the plain body {"type":"user.message","text":"hi","id":"m-1"} is rejected naming "id"; no run starts', async () => {
    const log = followSession(cluster.nats, "unknown-field-1");
    await publish("unknown-field-1", '{"type":"user.message","text":"hi","id":"m-1"}');
    const rejection = await log.first("message.rejected", undefined, 15_000);
    expect(rejection["code"]).toBe("decode_failed");
    expect(rejection["type"]).toBe("user.message");
    expect(rejection["reason"]).toContain('unknown field "id"');
    expect(rejection["reason"]).toContain('use "clientMessageId"');
    expect(rejection["issues"]).toEqual([
      expect.objectContaining({ code: "unrecognized_keys", keys: ["id"], path: ["payload"] }),
    ]);
    // The same body without the field runs; the rejected one left no run behind.
    await publish("unknown-field-1", '{"type":"user.message","text":"hi","clientMessageId":"m-1"}');
    const completed = await log.first("run.completed", undefined, 30_000);
    expect(completed["runId"]).toBe("r1");
    expect(log.ofType("run.started")).toHaveLength(1);
    log.stop();
  });

  it("a body that is neither JSON nor msgpack is rejected with what was expected and its first bytes", async () => {
    const log = followSession(cluster.nats, "garbage-1");
    await publish("garbage-1", "hello: not json");
    const rejection = await log.first("message.rejected", undefined, 15_000);
    expect(rejection["code"]).toBe("decode_failed");
    const reason = String(rejection["reason"]);
    expect(reason).toContain("Expected a msgpack envelope (Content-Type: application/msgpack");
    expect(reason).toContain(
      "got first 15 of 15 bytes: 68 65 6c 6c 6f 3a 20 6e 6f 74 20 6a 73 6f 6e |hello: not json|.",
    );
    // The rejection was committed before its event was published: no machine
    // state exists for the session (a rejection may leave a bookkeeping record only).
    const stored = await cluster.snapshots.load("session/garbage-1");
    expect(stored?.record.state).toBeUndefined();
    log.stop();
  });
});
