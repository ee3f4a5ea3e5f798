import { agentKinds, defineAgent } from "@troupe/agents";
import { replayActorCommand } from "@troupe/admin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";

const STRICT_HOST = "test/src/fixtures/strict-agent-host.ts";

describe("replay depends only on what was journaled", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a session run under an agent with policy reject and 3 model calls replays, with its run, on a registry whose agent says otherwise", async () => {
    const host = await cluster.startOnlyHost(STRICT_HOST);
    const sessionId = "strict-replay-1";
    const log = followSession(cluster.nats, sessionId);
    // Refused: the host serves no "ghost" (the replay registry below does).
    await cluster.publishToSession(sessionId, { type: "user.message", text: "hi", agent: "ghost" });
    await log.until(
      (events) => events.some((event) => event.type === "message.rejected"),
      15_000,
      "the ghost message rejected",
    );
    await cluster.publishToSession(sessionId, {
      type: "user.message",
      text: "/slow 100",
      agent: "strict",
    });
    await log.until(
      (events) => events.some((event) => event.type === "run.delta"),
      15_000,
      "the first run streams",
    );
    // The agent's policy is "reject": a message during the run is refused.
    await cluster.publishToSession(sessionId, { type: "user.message", text: "are you there" });
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      30_000,
      "session.idle",
    );
    expect(log.payloads("message.rejected").map((payload) => payload["code"])).toEqual([
      "unknown_agent",
      "run_active",
    ]);
    expect(log.payloads("message.rejected")[0]?.["reason"]).toBe(
      'Unknown agent "ghost". This host serves: strict.',
    );
    log.stop();
    // Nothing may write the actors while they are replayed.
    await host.stop();
    expect(await cluster.context(`session/${sessionId}`)).toMatchObject({
      agent: "strict",
      policy: "reject",
      maxModelCalls: 3,
    });
    expect(await cluster.context(`run/${sessionId}`)).toMatchObject({ lastRunId: "r1" });

    // Another registry: the same agent with the built-in defaults, and a "ghost".
    const otherRegistry = agentKinds({
      agents: [
        defineAgent({ name: "strict", instructions: "Other.", model: "scripted:demo" }),
        defineAgent({ name: "ghost", instructions: "Boo.", model: "scripted:demo" }),
      ],
    });
    const replay = (actor: string) =>
      replayActorCommand(
        {
          redis: cluster.redis,
          jsm: cluster.jsm,
          nats: cluster.nats,
          shardCount: cluster.shardCount,
          kinds: otherRegistry,
        },
        actor,
      );
    for (const actor of [`session/${sessionId}`, `run/${sessionId}`]) {
      const report = await replay(actor);
      expect(report).toMatchObject({ actor, reproduces: true, difference: undefined });
      expect(report.messagesReplayed).toBeGreaterThan(1);
    }
  });
});
