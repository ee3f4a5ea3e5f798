import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TOOL_EXECUTIONS_KEY } from "../fixtures/tools-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession, type SessionEventLog } from "../support/session-events.js";

const TOOLS_HOST = "test/src/fixtures/tools-host.ts";

type Payload = Record<string, unknown>;

describe("tool policy, approvals and ask_user", () => {
  let cluster: Cluster;
  beforeEach(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterEach(async () => {
    await cluster?.stop();
  });

  const publish = (sessionId: string, message: Payload) =>
    cluster.publishToSession(sessionId, message);

  async function executions(tool: string, key: string): Promise<number> {
    return Number((await cluster.redis.hget(TOOL_EXECUTIONS_KEY, `${tool}:${key}`)) ?? 0);
  }

  async function startHost(env: Record<string, string> = {}) {
    const host = await cluster.startHost({}, { entry: TOOLS_HOST, env });
    await cluster.waitForOwners([host.hostId], 20_000);
    return host;
  }

  const payloadsOf = (log: SessionEventLog, type: string) => log.payloads(type);
  const waitForEvent = (log: SessionEventLog, type: string, timeoutMs?: number) =>
    log.first(type, undefined, timeoutMs);

  function completedText(log: SessionEventLog): string {
    return String(payloadsOf(log, "run.completed")[0]?.["text"]);
  }

  it("a charge asks for approval; tool.approve on the session's subject runs it once and the run completes; a denied-by-policy tool never runs", async () => {
    await startHost();
    const log = followSession(cluster.nats, "appr-1");
    await publish("appr-1", {
      type: "user.message",
      agent: "gatekeeper",
      text: '/tool charge {"key":"a1"}\n/tool save_note {"key":"n1"}',
    });
    const requested = await waitForEvent(log, "tool.approval_requested");
    expect(requested).toMatchObject({ tool: "charge", arguments: { key: "a1" }, runId: "r1" });
    expect(await executions("charge", "a1")).toBe(0);

    await publish("appr-1", { type: "tool.approve", toolCallId: requested["toolCallId"] });
    await waitForEvent(log, "session.idle");
    expect(await executions("charge", "a1")).toBe(1);
    expect(await executions("save_note", "n1")).toBe(0);
    expect(payloadsOf(log, "tool.approval_settled")).toEqual([
      { toolCallId: requested["toolCallId"], decision: "approved" },
    ]);
    const failed = payloadsOf(log, "tool.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ tool: "save_note", error: { code: "denied" } });
    expect(completedText(log)).toContain("charge=");
    expect(completedText(log)).toContain("Denied by policy");
    log.stop();
  });

  it("tool.deny leaves the tool unrun and the model is told; a later approve gets alreadySettled", async () => {
    await startHost();
    const log = followSession(cluster.nats, "deny-1");
    await publish("deny-1", {
      type: "user.message",
      agent: "gatekeeper",
      text: '/tool charge {"key":"d1"}',
    });
    const requested = await waitForEvent(log, "tool.approval_requested");
    const toolCallId = requested["toolCallId"];
    await publish("deny-1", { type: "tool.deny", toolCallId, reason: "not today" });
    await waitForEvent(log, "session.idle");
    expect(await executions("charge", "d1")).toBe(0);
    expect(log.types()).toContain("run.completed");
    expect(completedText(log)).toContain("Denied by the user");
    expect(completedText(log)).toContain("not today");

    await publish("deny-1", { type: "tool.approve", toolCallId });
    await log.until(
      (events) => events.filter((event) => event.type === "tool.approval_settled").length === 2,
      20_000,
      "a second tool.approval_settled",
    );
    expect(payloadsOf(log, "tool.approval_settled")).toEqual([
      { toolCallId, decision: "denied" },
      { toolCallId, decision: "denied", alreadySettled: true },
    ]);
    expect(await executions("charge", "d1")).toBe(0);
    log.stop();
  });

  it("an approval that times out counts as denied", async () => {
    await startHost({ TROUPE_TEST_APPROVAL_TIMEOUT_MS: "1500" });
    const log = followSession(cluster.nats, "late-1");
    await publish("late-1", {
      type: "user.message",
      agent: "gatekeeper",
      text: '/tool charge {"key":"t1"}',
    });
    const requested = await waitForEvent(log, "tool.approval_requested");
    await waitForEvent(log, "session.idle");
    expect(payloadsOf(log, "tool.approval_settled")).toEqual([
      { toolCallId: requested["toolCallId"], decision: "timed_out" },
    ]);
    expect(await executions("charge", "t1")).toBe(0);
    expect(completedText(log)).toContain("timed out");
    log.stop();
  });

  it("ask_user: question.asked, then question.answer on the session's subject resumes the run with the answer", async () => {
    await startHost();
    const log = followSession(cluster.nats, "ask-1");
    await publish("ask-1", {
      type: "user.message",
      text: '/tool ask_user {"question":"Which city?"}',
    });
    const asked = await waitForEvent(log, "question.asked");
    expect(asked).toMatchObject({ text: "Which city?", runId: "r1" });
    await publish("ask-1", {
      type: "question.answer",
      questionId: asked["questionId"],
      text: "Lisbon",
    });
    await waitForEvent(log, "session.idle");
    expect(payloadsOf(log, "question.answered")).toEqual([
      { questionId: asked["questionId"], text: "Lisbon", runId: "r1" },
    ]);
    expect(completedText(log)).toContain("ask_user=");
    expect(completedText(log)).toContain("Lisbon");
    log.stop();
  });

  it("an approval granted after the host holding the call was killed runs the tool exactly once", async () => {
    const first = await startHost();
    const log = followSession(cluster.nats, "kill-appr-1");
    await publish("kill-appr-1", {
      type: "user.message",
      agent: "gatekeeper",
      text: '/tool charge {"key":"k1"}',
    });
    const requested = await waitForEvent(log, "tool.approval_requested");
    first.signal("SIGKILL");
    const second = await startHost();
    await publish("kill-appr-1", { type: "tool.approve", toolCallId: requested["toolCallId"] });
    await waitForEvent(log, "session.idle", 40_000);
    expect(await executions("charge", "k1")).toBe(1);
    expect(completedText(log)).toContain("charge=");
    expect(second.child.exitCode).toBeNull();
    log.stop();
  });
});
