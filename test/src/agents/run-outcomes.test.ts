import { JetStreamTranscriptReader } from "@troupe/agents/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";

describe("run outcomes", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    const host = await cluster.startHost({}, { entry: AGENT_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  function say(sessionId: string, body: Record<string, unknown>): Promise<unknown> {
    return cluster.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode(JSON.stringify(body)),
    );
  }

  it("run.cancel during streaming ends the run with run.cancelled, keeps the partial answer, and the session takes the next message", async () => {
    const log = followSession(cluster.nats, "cancel-1");
    await say("cancel-1", { type: "user.message", text: "/slow 100" });
    await log.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 4,
      15_000,
      "four deltas",
    );
    await say("cancel-1", { type: "run.cancel" });
    await log.until(
      (events) => events.some((event) => event.type === "run.cancelled"),
      15_000,
      "run.cancelled",
    );
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      10_000,
      "session.idle",
    );
    const cancelled = log.events.find((event) => event.type === "run.cancelled")!.payload as {
      runId: string;
      partialText?: string;
    };
    expect(cancelled.runId).toBe("r1");
    const partial = cancelled.partialText ?? "";
    expect(partial.length).toBeGreaterThan(0);
    expect("This answer streams slowly, one word at a time").toContain(
      partial.trim().split(" ").slice(0, 3).join(" "),
    );
    expect(log.types()).not.toContain("run.completed");

    await say("cancel-1", { type: "user.message", text: "are you there" });
    await log.until(
      (events) => events.some((event) => event.type === "run.completed"),
      15_000,
      "second run completed",
    );
    const completed = log.events.find((event) => event.type === "run.completed")!.payload as {
      runId: string;
      text: string;
    };
    expect(completed).toMatchObject({ runId: "r2", text: "You said: are you there" });
    // The partial answer stays in the transcript, between the two user messages.
    const transcript = await new JetStreamTranscriptReader(
      cluster.js,
      cluster.streams.transcript,
    ).read("cancel-1", 4, AbortSignal.timeout(10_000));
    expect(
      transcript.map((entry) => [entry.role, "text" in entry ? entry.text : entry.content]),
    ).toEqual([
      ["user", "/slow 100"],
      ["assistant", partial],
      ["user", "are you there"],
      ["assistant", "You said: are you there"],
    ]);
    log.stop();
  });

  it("a retryable model error is retried and the run completes", async () => {
    const log = followSession(cluster.nats, "flaky-1");
    await say("flaky-1", { type: "user.message", text: "/flaky second time lucky" });
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      20_000,
      "session.idle",
    );
    expect(log.types()).toContain("run.completed");
    expect(log.types()).not.toContain("run.failed");
    const completed = log.events.find((event) => event.type === "run.completed")!.payload as {
      text: string;
    };
    expect(completed.text).toBe("You said: second time lucky");
    log.stop();
  });

  it("a non-retryable model error fails the run with an error code and the session stays usable", async () => {
    const log = followSession(cluster.nats, "fail-1");
    await say("fail-1", { type: "user.message", text: "/fail" });
    await log.until(
      (events) => events.some((event) => event.type === "run.failed"),
      15_000,
      "run.failed",
    );
    const failed = log.events.find((event) => event.type === "run.failed")!.payload as {
      code: string;
      message: string;
    };
    expect(failed.code).toBe("model_error");
    expect(failed.message).toMatch(/refuses/);
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      10_000,
      "session.idle",
    );
    await say("fail-1", { type: "user.message", text: "hello" });
    await log.until(
      (events) => events.some((event) => event.type === "run.completed"),
      15_000,
      "next run completed",
    );
    log.stop();
  });

  it("a first message naming an unknown agent is rejected with the list of agents served", async () => {
    const log = followSession(cluster.nats, "agentless-1");
    await say("agentless-1", { type: "user.message", text: "hi", agent: "nope" });
    await log.until(
      (events) => events.some((event) => event.type === "message.rejected"),
      15_000,
      "message.rejected",
    );
    const rejected = log.events.find((event) => event.type === "message.rejected")!.payload as {
      code: string;
      reason: string;
    };
    expect(rejected.code).toBe("unknown_agent");
    expect(rejected.reason).toContain("nope");
    expect(rejected.reason).toContain("demo");
    expect(log.types()).not.toContain("run.started");
    log.stop();
  });
});
