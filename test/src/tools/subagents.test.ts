import type { EventEnvelope } from "@troupe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession, type SessionEventLog } from "../support/session-events.js";

const TOOLS_HOST = "test/src/fixtures/tools-host.ts";

type Payload = Record<string, unknown>;

describe("subagents", () => {
  let cluster: Cluster;
  beforeEach(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterEach(async () => {
    await cluster?.stop();
  });

  const publish = (sessionId: string, message: Payload) =>
    cluster.publishToSession(sessionId, message);
  const startHost = () => cluster.startOnlyHost(TOOLS_HOST);
  const eventsOf = (log: SessionEventLog, type: string, actor?: string) => log.ofType(type, actor);
  const payloadOf = (event: EventEnvelope | undefined) => event?.payload as Payload | undefined;
  const waitForEvent = (log: SessionEventLog, type: string, actor: string, timeoutMs?: number) =>
    log.first(type, actor, timeoutMs);

  it("the parent's model delegates; the subagent's answer is the tool result; its events appear on the parent's subjects", async () => {
    await startHost();
    const log = followSession(cluster.nats, "deleg-1");
    await publish("deleg-1", {
      type: "user.message",
      agent: "delegator",
      text: '/tool researcher {"task":"find the capital of Portugal"}',
    });
    const completed = await waitForEvent(log, "run.completed", "run/deleg-1");
    await waitForEvent(log, "session.idle", "session/deleg-1");

    const started = payloadOf(eventsOf(log, "subagent.started")[0])!;
    expect(started).toMatchObject({
      runId: "r1",
      task: "find the capital of Portugal",
      agent: "delegator--researcher",
    });
    const child = String(started["subagent"]);
    expect(child).toMatch(/^session\/sub-t[0-9a-f]{32}$/);
    const childRun = child.replace(/^session\//, "run/");
    const answer = "You said: find the capital of Portugal";
    expect(payloadOf(eventsOf(log, "subagent.completed")[0])).toMatchObject({
      subagent: child,
      runId: "r1",
      text: answer,
    });
    expect(payloadOf(eventsOf(log, "run.completed", childRun)[0])).toMatchObject({ text: answer });
    expect(eventsOf(log, "run.started", child)).toHaveLength(1);
    expect(
      payloadOf(eventsOf(log, "tool.completed", "tool/" + child.slice("session/sub-".length))[0]),
    ).toMatchObject({ tool: "researcher", content: answer });
    expect(String(completed["text"])).toContain("researcher=");
    expect(String(completed["text"])).toContain(answer);
    log.stop();
  });

  it("cancelling the parent run while the subagent streams cancels the subagent's run; nothing stays active", async () => {
    await startHost();
    const log = followSession(cluster.nats, "deleg-2");
    await publish("deleg-2", {
      type: "user.message",
      agent: "delegator",
      text: '/tool researcher {"task":"/slow 150"}',
    });
    await log.until(() => eventsOf(log, "subagent.started").length > 0, 30_000, "subagent.started");
    const child = String(payloadOf(eventsOf(log, "subagent.started")[0])!["subagent"]);
    const childRun = child.replace(/^session\//, "run/");
    await waitForEvent(log, "run.started", child);
    // The child's streamed text reaches the parent's subject, named after the child's run.
    await waitForEvent(log, "run.delta", childRun);
    await publish("deleg-2", { type: "run.cancel" });

    await waitForEvent(log, "run.cancelled", childRun);
    await waitForEvent(log, "run.cancelled", "run/deleg-2");
    await waitForEvent(log, "session.idle", child);
    await waitForEvent(log, "session.idle", "session/deleg-2");
    expect(eventsOf(log, "subagent.completed")).toHaveLength(0);
    expect(eventsOf(log, "run.completed")).toHaveLength(0);
    log.stop();
  });

  it("a subagent's tool that asks for approval is settled by a tool.approve on the parent session's subject", async () => {
    await startHost();
    const log = followSession(cluster.nats, "deleg-3");
    const task = '/tool charge {"key":"sub-pay"}';
    await publish("deleg-3", {
      type: "user.message",
      agent: "delegator",
      text: `/tool cashier ${JSON.stringify({ task })}`,
    });
    await log.until(
      () => eventsOf(log, "tool.approval_requested").length > 0,
      30_000,
      "approval requested",
    );
    const request = payloadOf(eventsOf(log, "tool.approval_requested")[0])!;
    expect(request).toMatchObject({ tool: "charge" });
    expect(String(request["sessionId"])).toMatch(/^sub-t[0-9a-f]{32}$/);
    expect(await cluster.redis.hget("test:tool-executions", "charge:sub-pay")).toBeNull();

    // A bare publish on the PARENT's subject, naming the session that owns the call.
    await publish("deleg-3", {
      type: "tool.approve",
      toolCallId: request["toolCallId"],
      sessionId: request["sessionId"],
    });
    await waitForEvent(log, "run.completed", "run/deleg-3");
    expect(payloadOf(eventsOf(log, "tool.approval_settled")[0])).toMatchObject({
      decision: "approved",
    });
    expect(await cluster.redis.hget("test:tool-executions", "charge:sub-pay")).toBe("1");
    log.stop();
  });
});
