/**
 * Tools from an MCP server of ours over Streamable HTTP (issue #15, Must
 * show), in its own process: it records the `_meta` of every `tools/call` and
 * every `notifications/cancelled`, and counts executions.
 *
 * - SIGKILL of the host during a non-idempotent call (`charge`): a second host
 *   takes the call over, the server executed it exactly once, the model gets
 *   an outcome-unknown result, and `_meta["dev.troupe/idempotency-key"]` is
 *   `<sessionId>/<runId>/<toolCallId>`.
 * - A cancelled run and a tool timeout each send `notifications/cancelled`
 *   for the call's request; the non-idempotent call is outcome unknown and
 *   never run again.
 */
import { JetStreamTranscriptReader } from "@troupe/agents/internal";
import { MCP_EXECUTION_ATTEMPT_META, MCP_IDEMPOTENCY_KEY_META } from "@troupe/agents";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { mcpTestAgent } from "../fixtures/mcp-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import {
  startMcpTestServer,
  type McpTestServerProcess,
} from "../support/mcp-test-server-process.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const MCP_HOST = "test/src/fixtures/mcp-agent-host.ts";

describe("MCP client over Streamable HTTP: SIGKILL of the host during a non-idempotent call", () => {
  let cluster: Cluster;
  let server: McpTestServerProcess;
  beforeEach(async () => {
    server = await startMcpTestServer();
    cluster = await startCluster({ shardCount: 8 });
  });
  afterEach(async () => {
    await server?.release().catch(() => undefined);
    await cluster?.stop();
    await server?.stop();
  });

  it("exactly one execution, an outcome-unknown result to the model, and the idempotency key in _meta", async () => {
    const env = {
      TROUPE_TEST_MCP_SERVERS: JSON.stringify({ pay: { url: server.url } }),
      TROUPE_TEST_TOOL_POLICY: JSON.stringify({ allow: ["pay__charge"] }),
    };
    const first = await cluster.startHost({}, { entry: MCP_HOST, env });
    await cluster.waitForOwners([first.hostId], 20_000);
    const sessionId = "mcp-kill-1";
    const log = followSession(cluster.nats, sessionId);
    await cluster.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode(
        JSON.stringify({ type: "user.message", text: '/tool pay__charge {"key":"order-7"}' }),
      ),
    );
    await waitFor(async () => (await server.state()).executions["charge"] === 1, {
      timeoutMs: 30_000,
      description: "the charge started on the MCP server",
    });
    first.signal("SIGKILL");
    await first.exited;
    const second = await cluster.startHost({}, { entry: MCP_HOST, env });
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      60_000,
      "session.idle",
    );

    const state = await server.state();
    expect(state.executions).toEqual({ charge: 1 });
    expect(state.calls).toHaveLength(1);
    const runId = (log.payloads("run.started")[0] as { runId: string }).runId;
    const toolCallId = (log.payloads("tool.started")[0] as { toolCallId: string }).toolCallId;
    expect(state.calls[0]).toMatchObject({
      tool: "charge",
      arguments: { key: "order-7" },
      meta: {
        [MCP_IDEMPOTENCY_KEY_META]: `${sessionId}/${runId}/${toolCallId}`,
        [MCP_EXECUTION_ATTEMPT_META]: 1,
      },
    });
    expect(log.payloads("tool.started")[0]).toMatchObject({
      tool: "pay__charge",
      effectClass: "non_idempotent_write",
    });
    expect(log.types()).toContain("tool.outcome_unknown");
    const transcript = await new JetStreamTranscriptReader(
      cluster.js,
      cluster.streams.transcript,
    ).read(sessionId, 4, AbortSignal.timeout(10_000));
    const results = transcript.filter((entry) => entry.role === "tool");
    expect(results.map((entry) => [entry.toolName, entry.status])).toEqual([
      ["pay__charge", "outcome_unknown"],
    ]);
    const completed = log.payloads("run.completed")[0] as { text: string };
    expect(completed.text).toMatch(
      /^Tool results:\npay__charge \(error\): The outcome of tool "pay__charge" is unknown: an attempt started but its host stopped .* It was not run again/,
    );
    // Letting the first call finish now changes nothing: it ran once.
    await server.release();
    expect((await server.state()).executions).toEqual({ charge: 1 });
    expect(second.child.exitCode).toBeNull();
    log.stop();
  });
});

describe("MCP client over Streamable HTTP: cancellation and timeouts send notifications/cancelled", () => {
  let server: McpTestServerProcess;
  let deployment: TestDeployment;
  beforeAll(async () => {
    server = await startMcpTestServer();
    deployment = await createTestDeployment({
      agents: mcpTestAgent({
        mcpServers: { pay: { url: server.url, tools: { hold: { timeoutMs: 1_500 } } } },
        toolPolicy: { allow: ["pay__*"] },
      }),
      prefix: "mcphttp",
      servers: { dataDirPrefix: testRunMarker() },
    });
  });
  afterAll(async () => {
    await server?.release().catch(() => undefined);
    await deployment?.stop();
    await server?.stop();
  });

  it("a cancelled run cancels its MCP request: notifications/cancelled for the call, the handler aborted, the call outcome unknown", async () => {
    const sessionId = "mcp-cancel-1";
    const run = deployment.sendAndWait(sessionId, '/tool pay__charge {"key":"c-1"}');
    await waitFor(
      async () =>
        (await server.state()).calls.some(
          (call) => call.arguments !== null && (call.arguments as { key?: string }).key === "c-1",
        ),
      { timeoutMs: 30_000, description: "the charge reached the server" },
    );
    await deployment.client.cancel(sessionId, { reason: "changed my mind" });
    const outcome = await run;
    expect(outcome.status).toBe("cancelled");
    const call = (await server.state()).calls.find(
      (entry) => (entry.arguments as { key?: string }).key === "c-1",
    )!;
    await waitFor(
      async () =>
        (await server.state()).cancelled.some(
          (entry) => entry.requestId === call.requestId && entry.mcpSessionId === call.mcpSessionId,
        ),
      { timeoutMs: 20_000, description: "notifications/cancelled for the charge" },
    );
    await deployment.expectEvents(sessionId, [
      "run.cancelled",
      { type: "tool.outcome_unknown", payload: { tool: "pay__charge" } },
    ]);
    const state = await server.state();
    expect(state.ended).toContainEqual({ tool: "charge", key: "c-1", how: "aborted" });
    expect(
      state.calls.filter((entry) => (entry.arguments as { key?: string }).key === "c-1"),
    ).toHaveLength(1);
  });

  it("a tool timeout cancels the MCP request: notifications/cancelled, and the non-idempotent call is outcome unknown, never repeated", async () => {
    const sessionId = "mcp-timeout-1";
    const outcome = await deployment.sendAndWait(sessionId, '/tool pay__hold {"key":"t-1"}');
    expect(outcome.status).toBe("completed");
    expect(outcome.status === "completed" ? outcome.text : "").toMatch(
      /^Tool results:\npay__hold \(error\): /,
    );
    expect(outcome.events.map((event) => event.type)).toContain("tool.outcome_unknown");
    const holds = (await server.state()).calls.filter((entry) => entry.tool === "hold");
    expect(holds).toHaveLength(1);
    await waitFor(
      async () =>
        (await server.state()).cancelled.some(
          (entry) =>
            entry.requestId === holds[0]!.requestId &&
            entry.mcpSessionId === holds[0]!.mcpSessionId,
        ),
      { timeoutMs: 20_000, description: "notifications/cancelled for the hold" },
    );
    const state = await server.state();
    expect(state.executions["hold"]).toBe(1);
    expect(state.ended).toContainEqual({ tool: "hold", key: "t-1", how: "aborted" });
  });
});
