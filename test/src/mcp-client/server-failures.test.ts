/**
 * MCP server failures (issue #15): a stdio server that dies is started again
 * and its tools work again; a `read` in flight at the crash is retried and
 * succeeds on the new process, a `non_idempotent_write` in flight is outcome
 * unknown (run once); `notifications/tools/list_changed` refreshes the tools
 * the model is offered; an `isError: true` result reaches the model as the
 * tool's error and is not retried; a server unreachable at host start is
 * logged by name and the agent's other tools keep working.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCP_EXECUTION_ATTEMPT_META, MCP_IDEMPOTENCY_KEY_META } from "@troupe/agents";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { mcpTestAgent, stdioFixtureServer } from "../fixtures/mcp-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

/** One line of the stdio fixture server's log. */
interface ServerLogLine {
  readonly pid: number;
  readonly phase: "up" | "start" | "end";
  readonly tool?: string;
  readonly key?: string;
  readonly meta?: Record<string, unknown>;
}

describe("MCP client: a stdio server that fails", () => {
  let deployment: TestDeployment;
  let dir: string;
  let logFile: string;
  const lines = (): ServerLogLine[] =>
    readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as ServerLogLine);
  const starts = (tool: string, key: string) =>
    lines().filter((line) => line.phase === "start" && line.tool === tool && line.key === key);
  const pids = () =>
    lines()
      .filter((line) => line.phase === "up")
      .map((line) => line.pid);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "troupe-mcp-failures-"));
    logFile = join(dir, "server.log");
    deployment = await createTestDeployment({
      agents: mcpTestAgent({
        mcpServers: { crashy: stdioFixtureServer(logFile) },
        toolPolicy: { allow: ["crashy__*"] },
      }),
      prefix: "mcpfail",
      servers: { dataDirPrefix: testRunMarker() },
    });
  });

  afterAll(async () => {
    await deployment?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("a server killed mid-call is started again: the read in flight is retried and succeeds, the non-idempotent write is outcome unknown and ran once", async () => {
    await waitFor(() => pids().length === 1, { timeoutMs: 30_000, description: "server up" });
    const [firstPid] = pids();
    const read = deployment.sendAndWait(
      "crash-read",
      '/tool crashy__slow_read {"key":"r1","ms":60000}',
    );
    const write = deployment.sendAndWait(
      "crash-write",
      '/tool crashy__slow_write {"key":"w1","ms":60000}',
    );
    await waitFor(
      () => starts("slow_read", "r1").length === 1 && starts("slow_write", "w1").length === 1,
      { timeoutMs: 30_000, description: "both calls running on the server" },
    );
    process.kill(firstPid!, "SIGKILL");

    await waitFor(() => pids().length === 2, { timeoutMs: 30_000, description: "restarted" });
    const secondPid = pids()[1]!;
    expect(secondPid).not.toBe(firstPid);
    await waitFor(() => starts("slow_read", "r1").length === 2, {
      timeoutMs: 30_000,
      description: "the read retried",
    });
    expect(starts("slow_read", "r1").map((line) => line.pid)).toEqual([firstPid, secondPid]);
    // Both attempts carry the same idempotency key in _meta, and their attempt number.
    const readKey = starts("slow_read", "r1")[0]!.meta?.[MCP_IDEMPOTENCY_KEY_META];
    expect(readKey).toMatch(/^crash-read\/r1\/[^/]+$/);
    expect(starts("slow_read", "r1").map((line) => line.meta)).toMatchObject([
      { [MCP_IDEMPOTENCY_KEY_META]: readKey, [MCP_EXECUTION_ATTEMPT_META]: 1 },
      { [MCP_IDEMPOTENCY_KEY_META]: readKey, [MCP_EXECUTION_ATTEMPT_META]: 2 },
    ]);
    // The retried read would wait 60 s again on the new process: let it answer now.
    writeFileSync(`${logFile}.release`, "");
    const readOutcome = await read;
    expect(readOutcome).toMatchObject({
      status: "completed",
      text: `Tool results:\ncrashy__slow_read: read r1 by ${secondPid}`,
    });
    expect(readOutcome.events.map((event) => event.type)).not.toContain("tool.outcome_unknown");
    const writeOutcome = await write;
    expect(writeOutcome.status).toBe("completed");
    expect(writeOutcome.status === "completed" ? writeOutcome.text : "").toMatch(
      /^Tool results:\ncrashy__slow_write \(error\): /,
    );
    expect(writeOutcome.events.map((event) => event.type)).toContain("tool.outcome_unknown");
    expect(starts("slow_write", "w1")).toHaveLength(1);
    // Its tools work again: a new call runs on the new process.
    const again = await deployment.sendAndWait(
      "crash-after",
      '/tool crashy__slow_read {"key":"r2","ms":0}',
    );
    expect(again).toMatchObject({
      status: "completed",
      text: `Tool results:\ncrashy__slow_read: read r2 by ${secondPid}`,
    });
  });

  it("notifications/tools/list_changed refreshes the tools: the model is offered the new tool and its call runs", async () => {
    const before = await deployment.sendAndWait("tools-before", "/tools");
    const offered = (outcome: typeof before) =>
      outcome.status === "completed" ? outcome.text.split(",") : [];
    expect(offered(before)).toContain("crashy__slow_read");
    expect(offered(before)).not.toContain("crashy__late_tool");
    expect(
      await deployment.sendAndWait("tools-add", '/tool crashy__add_tool {"name":"late_tool"}'),
    ).toMatchObject({
      status: "completed",
      text: "Tool results:\ncrashy__add_tool: added late_tool",
    });
    // The SDK lists the tools again (debounced) after the notification.
    let attempt = 0;
    await waitFor(
      async () =>
        offered(await deployment.sendAndWait(`tools-after-${attempt++}`, "/tools")).includes(
          "crashy__late_tool",
        ),
      { timeoutMs: 20_000, intervalMs: 200, description: "crashy__late_tool offered" },
    );
    expect(await deployment.sendAndWait("tools-call", "/tool crashy__late_tool {}")).toMatchObject({
      status: "completed",
      text: "Tool results:\ncrashy__late_tool: extra",
    });
  });

  it("an isError result reaches the model as the tool's error, and a read is not retried for it", async () => {
    const outcome = await deployment.sendAndWait("is-error", '/tool crashy__fail {"key":"e1"}');
    expect(outcome).toMatchObject({
      status: "completed",
      text: 'Tool results:\ncrashy__fail (error): Tool "crashy__fail" failed: refused e1',
    });
    const failed = outcome.events.find((event) => event.type === "tool.failed");
    expect(failed?.payload).toMatchObject({ tool: "crashy__fail" });
    expect((failed?.payload as { error: { message: string } }).error.message).toContain(
      "refused e1",
    );
    expect(outcome.events.map((event) => event.type)).not.toContain("tool.completed");
    expect(starts("fail", "e1")).toHaveLength(1);
  });
});

describe("MCP client: a server unreachable at host start", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("is logged as an error naming the server; the host runs and the agent's other tools work", async () => {
    const port = await closedPort();
    const host = await cluster.startHost(
      {},
      {
        entry: "test/src/fixtures/mcp-agent-host.ts",
        env: {
          TROUPE_TEST_MCP_SERVERS: JSON.stringify({
            billing: { url: `http://127.0.0.1:${port}/mcp`, connectTimeoutMs: 2_000 },
          }),
          TROUPE_LOG_LEVEL: "warn",
        },
      },
    );
    await cluster.waitForOwners([host.hostId], 20_000);
    const log = followSession(cluster.nats, "unreachable-1");
    await cluster.js.publish(
      "troupe.session.unreachable-1.in",
      new TextEncoder().encode(JSON.stringify({ type: "user.message", text: "/tool clock {}" })),
    );
    await log.until(
      (events) => events.some((event) => event.type === "run.completed"),
      30_000,
      "run.completed",
    );
    expect(log.payloads("run.completed")[0]).toMatchObject({ text: "Tool results:\nclock: 12:00" });
    await waitFor(() => host.stdout().includes('MCP server \\"billing\\" is unreachable'), {
      timeoutMs: 10_000,
      description: "the error line",
    });
    const line = host
      .stdout()
      .split("\n")
      .filter((entry) => entry.startsWith("{"))
      .map((entry) => JSON.parse(entry) as { level: number; msg: string; mcpServer?: string })
      .find((entry) => entry.mcpServer === "billing");
    expect(line?.level).toBe(50);
    expect(line?.msg).toMatch(
      /^MCP server "billing" is unreachable: .+; its tools are unavailable/,
    );
    expect(host.child.exitCode).toBeNull();
    log.stop();
  });
});

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
