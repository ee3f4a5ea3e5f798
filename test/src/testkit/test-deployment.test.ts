/**
 * `@troupe/testkit`'s `createTestDeployment` from the sources (issue #14, the
 * test kit): real servers, one in-process host, and the helpers. The durable
 * timer test is the issue's "a 24 h approval timeout tested in milliseconds":
 * the tool call's approval timeout (default 24 h, `approvalTimeoutMs`) fires
 * after `clock.advance(24 h)`, and the test prints how long it took.
 */
import { defineAgent, defineTool } from "@troupe/agents";
import { TroupeError } from "@troupe/protocol";
import {
  callTool,
  createTestDeployment,
  EventsNotSeenError,
  formatHistory,
  formatHistoryReplayReport,
  replayHistory,
  reply,
  scriptedModel,
  type TestDeployment,
} from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "../support/wait-for.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** Orders the refund tool refunded, in call order. */
const refunded: string[] = [];

const refundOrder = defineTool({
  name: "refund_order",
  description: "Refunds an order.",
  inputSchema: z.object({ orderId: z.string() }),
  // A payment is not safe to repeat: every call asks for approval first.
  effectClass: "non_idempotent_write",
  execute: ({ orderId }) => {
    refunded.push(orderId);
    return Promise.resolve({ orderId, refunded: true });
  },
});

/** Calls refund_order, then says what the tool result said. */
const agent = defineAgent({
  name: "support",
  instructions: "Refund orders when asked.",
  model: scriptedModel([
    callTool("refund_order", { orderId: "A1" }),
    ({ messages }) => {
      const result = JSON.stringify(messages.at(-1)?.content ?? []);
      return reply(
        result.includes('\\"refunded\\":true') ? "Refunded A1." : "A1 was not refunded.",
      );
    },
  ]),
  tools: [refundOrder],
});

describe("createTestDeployment (sources, real servers)", () => {
  let deployment: TestDeployment;

  beforeAll(async () => {
    deployment = await createTestDeployment({
      agents: agent,
      prefix: "testkit",
      servers: { dataDirPrefix: testRunMarker() },
    });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it("a 24 h approval timeout fires after clock.advance(24 h): the call is settled timed_out and never runs", async () => {
    const startMs = performance.now();
    const run = deployment.sendAndWait("timeout-1", "Refund A1 please");
    const approval = await deployment.waitForApproval("timeout-1");
    expect(approval).toMatchObject({
      tool: "refund_order",
      arguments: { orderId: "A1" },
      sessionId: "timeout-1",
    });
    expect(approval.subagentSessionId).toBeUndefined();
    const [requested] = await deployment.expectEvents("timeout-1", ["tool.approval_requested"]);

    // The durable timer: one member in the deployment's timer sets, due 24 h after the request.
    const timers = await armedTimers(deployment);
    expect(timers).toHaveLength(1);
    const [timer] = timers;
    expect(timer!.deadlineMs - requested.meta.timestampMs).toBeGreaterThanOrEqual(DAY_MS - 5_000);
    expect(timer!.deadlineMs - requested.meta.timestampMs).toBeLessThanOrEqual(DAY_MS + 5_000);
    expect(timer!.score).toBe(timer!.deadlineMs);

    // An hour: the timer comes an hour closer, the member still names the real deadline.
    const offsetBefore = deployment.clock.offsetMs;
    await deployment.clock.advance(HOUR_MS);
    expect(deployment.clock.offsetMs - offsetBefore).toBe(HOUR_MS);
    expect(await armedTimers(deployment)).toEqual([
      { member: timer!.member, deadlineMs: timer!.deadlineMs, score: timer!.deadlineMs - HOUR_MS },
    ]);

    // The rest of the day: the host's next timer poll fires it.
    await deployment.clock.advance(DAY_MS - HOUR_MS);
    const [settled, failed] = await deployment.expectEvents("timeout-1", [
      { type: "tool.approval_settled", payload: { toolCallId: approval.toolCallId } },
      { type: "tool.failed", payload: { toolCallId: approval.toolCallId } },
    ]);
    expect(settled.payload.decision).toBe("timed_out");
    expect(failed.payload.error.message).toContain("timed out");
    const outcome = await run;
    const elapsedMs = Math.round(performance.now() - startMs);
    process.stderr.write(`testkit approval-timeout test: ${elapsedMs} ms (deployment up)\n`);

    expect(outcome).toMatchObject({ status: "completed", text: "A1 was not refunded." });
    expect(outcome.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(["tool.approval_requested", "tool.approval_settled", "tool.failed"]),
    );
    expect(refunded).toEqual([]);
    expect(await armedTimers(deployment)).toEqual([]);
    // The conversation with its early-fired timer is a history that replays as recorded.
    const report = replayHistory({
      history: await deployment.exportHistory("session/timeout-1", { tree: true }),
    });
    expect(report.reproduces, formatHistoryReplayReport(report)).toBe(true);
  });

  it("approve: waitForApproval finds the pending call, approve gets the verdict, the tool runs once", async () => {
    const run = deployment.sendAndWait("approve-1", "Refund A1 please");
    const approval = await deployment.waitForApproval("approve-1", { toolName: "refund_order" });
    const verdict = await deployment.approve("approve-1", approval, { note: "ok" });
    expect(verdict.verdict).toBe("applied");
    expect(await run).toMatchObject({ status: "completed", text: "Refunded A1." });
    expect(refunded).toEqual(["A1"]);
    // A second approval of the settled call: already settled, and nothing runs again.
    expect((await deployment.approve("approve-1", approval.toolCallId)).verdict).toBe(
      "already_settled",
    );
    expect(refunded).toEqual(["A1"]);
  });

  it("exportHistory records the approved conversation (tree) and replayHistory replays it offline", async () => {
    const history = await deployment.exportHistory("session/approve-1", { tree: true });
    expect(history).toMatchObject({ root: "session/approve-1", tree: true });
    const addresses = history.actors.map((actor) => actor.address);
    expect(addresses[0]).toBe("session/approve-1");
    expect(addresses.some((address) => address.startsWith("run/"))).toBe(true);
    expect(addresses.some((address) => address.startsWith("tool/"))).toBe(true);
    expect(history.producer?.agents).toEqual([{ name: "support" }]);
    // The fixture as a file would hold it, replayed with this release's machines.
    const report = replayHistory({ history: formatHistory(history, "json"), agent });
    expect(report.reproduces, formatHistoryReplayReport(report)).toBe(true);
    expect(report.actors).toHaveLength(history.actors.length);
    await expect(deployment.exportHistory("session/never-used")).rejects.toMatchObject({
      code: "actor_not_found",
    });
  });

  it("deny: the call fails with the reason and events() holds the session's story in order", async () => {
    const run = deployment.sendAndWait("deny-1", "Refund A1 please");
    const approval = await deployment.waitForApproval("deny-1");
    expect((await deployment.deny("deny-1", approval, { reason: "not today" })).verdict).toBe(
      "applied",
    );
    expect(await run).toMatchObject({ status: "completed", text: "A1 was not refunded." });
    const types = (await deployment.events("deny-1")).map((event) => event.type);
    expect(types.indexOf("tool.approval_requested")).toBeLessThan(
      types.indexOf("tool.approval_settled"),
    );
    expect(types.indexOf("tool.approval_settled")).toBeLessThan(types.lastIndexOf("run.completed"));
    expect(await deployment.events("never-used")).toEqual([]);
  });

  it("expectEvents names the first missing expectation and the events seen when they do not come", async () => {
    // The script's first step calls the tool, which then waits for approval.
    await deployment.client.send("plain-1", "hello");
    const error = await deployment
      .expectEvents("plain-1", ["message.accepted", "question.asked"], { timeoutMs: 500 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventsNotSeenError);
    expect(error).toMatchObject({
      code: "timeout",
      sessionId: "plain-1",
      missing: ["question.asked"],
    });
    expect((error as EventsNotSeenError).seen).toEqual(
      expect.arrayContaining(["message.accepted", "tool.approval_requested"]),
    );
    expect((error as Error).message).toContain("no event matched question.asked");
  });

  it("a session that outruns its script fails its run with a model error naming the script", async () => {
    // plain-1 above waits for approval of its first step's call: approved, the second step
    // answers; the next message's model call finds no third step.
    const approval = await deployment.waitForApproval("plain-1");
    await deployment.approve("plain-1", approval);
    await deployment.expectEvents("plain-1", [
      { type: "run.completed", payload: { text: "Refunded A1." } },
    ]);
    const outcome = await deployment.sendAndWait("plain-1", "and again");
    expect(outcome).toMatchObject({ status: "failed", code: "model_error" });
    expect(outcome.status === "failed" && outcome.message).toContain(
      "session plain-1 made model call 3, but the script has 2 step(s)",
    );
  });

  it("refuses bad options with invalid_options, starting and moving nothing", async () => {
    const error = await createTestDeployment({ agents: agent, hosts: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(TroupeError.isInstance(error) && error.code).toBe("invalid_options");
    expect((error as Error).message).toContain("hosts must be an integer from 1 to 8, got 0");
    const offset = deployment.clock.offsetMs;
    await expect(deployment.clock.advance(-1)).rejects.toMatchObject({ code: "invalid_options" });
    await expect(deployment.clock.advance(Number.NaN)).rejects.toMatchObject({
      code: "invalid_options",
    });
    expect(deployment.clock.offsetMs).toBe(offset);
  });
});

/** Every member of the deployment's timer sets: `<deadlineMs>|<address>|<timerId>` and its score. */
async function armedTimers(
  deployment: TestDeployment,
): Promise<{ member: string; deadlineMs: number; score: number }[]> {
  const timers: { member: string; deadlineMs: number; score: number }[] = [];
  for (let shard = 0; shard < deployment.shardCount; shard++) {
    const key = `${deployment.prefix}:{${shard}}:timers`;
    for (const member of await deployment.redis.zrange(key, 0, "-1")) {
      timers.push({
        member,
        deadlineMs: Number(member.split("|")[0]),
        score: Number(await deployment.redis.zscore(key, member)),
      });
    }
  }
  return timers;
}

describe("createTestDeployment with two hosts", () => {
  it("serves the agents from two in-process hosts that share the shards", async () => {
    await using deployment = await createTestDeployment({
      agents: [agent],
      hosts: 2,
      prefix: "testkit2",
      servers: { dataDirPrefix: testRunMarker() },
    });
    expect(deployment.hosts).toHaveLength(2);
    expect(deployment.agents).toEqual(["support"]);
    // Fair shares once both are members: 2 + 2 of 4 shards, none owned twice.
    await waitFor(() => deployment.hosts.every((host) => host.ownedShards.length === 2), {
      timeoutMs: 20_000,
      description: "each host owning 2 of the 4 shards",
    });
    const owned = deployment.hosts.flatMap((host) => host.ownedShards).sort();
    expect(owned).toEqual([0, 1, 2, 3]);
    const run = deployment.sendAndWait("two-hosts", "Refund A1 please");
    await deployment.approve("two-hosts", await deployment.waitForApproval("two-hosts"));
    expect(await run).toMatchObject({ status: "completed", text: "Refunded A1." });
  });
});
