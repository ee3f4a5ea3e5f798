import { JetStreamTranscriptReader } from "@troupe/agents/internal";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TOOL_EXECUTIONS_KEY, TOOL_LOG_KEY, type ToolLogEntry } from "../fixtures/tools-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const TOOLS_HOST = "test/src/fixtures/tools-host.ts";

/** A user message whose lines are `/tool <name> <json>` calls of one model response. */
function toolMessage(calls: [string, Record<string, unknown>][], suffix = ""): string {
  return calls.map(([name, input]) => `/tool ${name} ${JSON.stringify(input)}`).join("\n") + suffix;
}

describe("tool calls", () => {
  let cluster: Cluster;
  beforeEach(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterEach(async () => {
    await cluster?.stop();
  });

  async function say(sessionId: string, text: string): Promise<void> {
    await cluster.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode(JSON.stringify({ type: "user.message", text })),
    );
  }

  async function executions(tool: string, key: string): Promise<number> {
    return Number((await cluster.redis.hget(TOOL_EXECUTIONS_KEY, `${tool}:${key}`)) ?? 0);
  }

  async function toolLog(): Promise<ToolLogEntry[]> {
    return (await cluster.redis.lrange(TOOL_LOG_KEY, 0, -1)).map(
      (line) => JSON.parse(line) as ToolLogEntry,
    );
  }

  it("reads of one response run concurrently, writes run in order, and a failed write skips the later ones", async () => {
    const host = await cluster.startHost({}, { entry: TOOLS_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
    const log = followSession(cluster.nats, "order-1");
    await say(
      "order-1",
      toolMessage([
        ["lookup", { key: "r1", delayMs: 1500 }],
        ["save_note", { key: "w1", delayMs: 100 }],
        ["lookup", { key: "r2", delayMs: 1500 }],
        ["charge", { key: "w2", fail: true }],
        ["save_note", { key: "w3" }],
      ]),
    );
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      30_000,
      "session.idle",
    );
    const entries = await toolLog();
    const at = (tool: string, key: string, phase: "start" | "end") =>
      entries.find((entry) => entry.tool === tool && entry.key === key && entry.phase === phase)
        ?.atMs ?? Number.NaN;
    // The two reads overlap.
    expect(at("lookup", "r2", "start")).toBeLessThan(at("lookup", "r1", "end"));
    expect(at("lookup", "r1", "start")).toBeLessThan(at("lookup", "r2", "end"));
    // The writes run one after another in the model's order: w2 starts after w1 ended.
    expect(at("charge", "w2", "start")).toBeGreaterThanOrEqual(at("save_note", "w1", "end"));
    // w2 failed (charge runs at most once), so w3 never ran.
    expect(await executions("charge", "w2")).toBe(1);
    expect(await executions("save_note", "w3")).toBe(0);
    const transcript = await new JetStreamTranscriptReader(
      cluster.js,
      cluster.streams.transcript,
    ).read("order-1", 8, AbortSignal.timeout(10_000));
    const results = transcript.filter((entry) => entry.role === "tool");
    expect(results.map((entry) => [entry.toolName, entry.status])).toEqual([
      ["lookup", "succeeded"],
      ["save_note", "succeeded"],
      ["lookup", "succeeded"],
      ["charge", "failed"],
      ["save_note", "skipped"],
    ]);
    expect(log.types()).toContain("run.completed");
    log.stop();
  });

  it("a non_idempotent_write whose host is SIGKILLed mid-execution runs at most once and the model gets outcome unknown; a read is retried and succeeds", async () => {
    const first = await cluster.startHost({}, { entry: TOOLS_HOST });
    await cluster.waitForOwners([first.hostId], 20_000);
    const log = followSession(cluster.nats, "kill-1");
    await say(
      "kill-1",
      toolMessage([
        ["lookup", { key: "k-read", delayMs: 3000 }],
        ["charge", { key: "k-pay", delayMs: 3000 }],
      ]),
    );
    await waitFor(
      async () =>
        (await executions("lookup", "k-read")) === 1 && (await executions("charge", "k-pay")) === 1,
      {
        timeoutMs: 15_000,
        description: "both tools started",
      },
    );
    first.signal("SIGKILL");
    const second = await cluster.startHost({}, { entry: TOOLS_HOST });
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      40_000,
      "session.idle",
    );

    expect(await executions("charge", "k-pay")).toBe(1);
    expect(await executions("lookup", "k-read")).toBe(2);
    const transcript = await new JetStreamTranscriptReader(
      cluster.js,
      cluster.streams.transcript,
    ).read("kill-1", 5, AbortSignal.timeout(10_000));
    const results = transcript.filter((entry) => entry.role === "tool");
    expect(results.map((entry) => [entry.toolName, entry.status])).toEqual([
      ["lookup", "succeeded"],
      ["charge", "outcome_unknown"],
    ]);
    expect(log.types()).toContain("tool.outcome_unknown");
    const completed = log.events.find((event) => event.type === "run.completed")!.payload as {
      text: string;
    };
    expect(completed.text).toContain("charge");
    expect(second.child.exitCode).toBeNull();
    log.stop();
  });

  it("a model call that fails after a tool ran is retried and reuses the recorded tool result", async () => {
    const host = await cluster.startHost({}, { entry: TOOLS_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
    const log = followSession(cluster.nats, "reuse-1");
    await say("reuse-1", toolMessage([["save_note", { key: "n1" }]], "\n#flaky-after-tools"));
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      30_000,
      "session.idle",
    );
    expect(log.types()).toContain("run.completed");
    expect(log.types()).not.toContain("run.failed");
    expect(await executions("save_note", "n1")).toBe(1);
    log.stop();
  });
});
