import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAddress, shardOf } from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { SpendReport } from "@troupe/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession, type SessionEventLog } from "../support/session-events.js";
import { runTroupe } from "../support/troupe-cli.js";

// Spend limits across the agent tree (issue #19, docs/capabilities/spend-limits.md,
// decision 0041), with scripted models that report fixed usage
// (fixtures/budget-agent.ts) on real NATS and Redis.

const BUDGET_HOST = "test/src/fixtures/budget-host.ts";

describe("spend limits", () => {
  let cluster: Cluster;
  let keys: RedisKeys;
  let home: string;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    keys = new RedisKeys("troupe", cluster.shardCount);
    home = await mkdtemp(join(tmpdir(), "troupe-usage-"));
    await cluster.startOnlyHost(BUDGET_HOST);
  });
  afterAll(async () => {
    await cluster?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  const budget = (scope: string, scopeId: string) =>
    cluster.redis.hgetall(keys.spendBudget(scope, scopeId));
  const send = (sessionId: string, agent: string, text: string) =>
    cluster.publishToSession(sessionId, { type: "user.message", agent, text });
  const idle = (log: SessionEventLog, sessionId: string, timeoutMs = 30_000) =>
    log.first("session.idle", `session/${sessionId}`, timeoutMs);
  const usage = (args: string[]) =>
    runTroupe(["usage", ...args], {
      home,
      env: { TROUPE_NATS_URL: cluster.servers.natsUrl, TROUPE_REDIS_URL: cluster.servers.redisUrl },
      timeoutMs: 30_000,
    });

  it("warns at the threshold once per budget and unit, and ends the run budget_exceeded before the next model call, never mid-tool", async () => {
    const log = followSession(cluster.nats, "spend-1");
    await send("spend-1", "spender", "tick until the budget runs out");
    const failed = await log.first("run.failed", "run/spend-1", 30_000);
    await idle(log, "spend-1");

    // 500 tokens and $0.0008 a call: four calls fit in 2 000 tokens, the fifth cannot.
    expect(failed).toMatchObject({ runId: "r1", code: "budget_exceeded" });
    expect(String(failed["message"])).toContain("session tree budget spend-1");
    expect(log.payloads("budget.warning")).toEqual([
      {
        runId: "r1",
        scope: "session",
        scopeId: "spend-1",
        unit: "tokens",
        spent: 1000,
        limit: 2000,
        warnAt: 0.5,
      },
      {
        runId: "r1",
        scope: "session",
        scopeId: "spend-1",
        unit: "usd",
        spent: 0.0024,
        limit: 0.004,
        warnAt: 0.5,
      },
    ]);
    // The tokens warning comes with the 2nd call, the cost warning with the 3rd.
    const types = log.types().filter((type) => type !== "run.delta");
    const toolStarts = types.flatMap((type, index) => (type === "tool.started" ? [index] : []));
    const warnings = types.flatMap((type, index) => (type === "budget.warning" ? [index] : []));
    expect(warnings[0]).toBeGreaterThan(toolStarts[0]!);
    expect(warnings[0]).toBeLessThan(toolStarts[1]!);
    expect(warnings[1]).toBeGreaterThan(toolStarts[1]!);
    expect(warnings[1]).toBeLessThan(toolStarts[2]!);
    // Never mid-tool: every tool call of the run finished before run.failed.
    expect(log.ofType("tool.started")).toHaveLength(4);
    expect(log.ofType("tool.completed")).toHaveLength(4);
    expect(types.lastIndexOf("tool.completed")).toBeLessThan(types.indexOf("run.failed"));
    expect(await budget("session", "spend-1")).toMatchObject({
      spentTokens: "2000",
      spentMicroUsd: "3200",
      inputTokens: "1600",
      outputTokens: "400",
      calls: "4",
      reservedTokens: "0",
      reservedMicroUsd: "0",
    });
    expect(await budget("run", "spend-1/r1")).toMatchObject({ spentTokens: "2000", calls: "4" });
    log.stop();
  }, 60_000);

  it("concurrent subagents that together would overshoot the tree's budget do not: reservations refuse the excess", async () => {
    const log = followSession(cluster.nats, "fan-1");
    await send("fan-1", "fanout", "split the work");
    const parentFailed = await log.first("run.failed", "run/fan-1", 30_000);
    await idle(log, "fan-1");

    const children = log.payloads("subagent.started").map((payload) => String(payload["subagent"]));
    expect(children).toHaveLength(4);
    const childRuns = children.map((child) => child.replace(/^session\//, "run/"));
    const completed = childRuns.filter((run) => log.ofType("run.completed", run).length === 1);
    const refused = childRuns.filter((run) =>
      log.payloads("run.failed", run).some((payload) => payload["code"] === "budget_exceeded"),
    );
    expect(completed).toHaveLength(2);
    expect(refused).toHaveLength(2);
    // The refusals came while the two workers still streamed: their reservations, not
    // their settled spend, filled the budget.
    const sequenceOf = (type: string, actor: string) =>
      log.ofType(type, actor)[0]!.meta.timestampMs ?? 0;
    const firstCompletion = Math.min(...completed.map((run) => sequenceOf("run.completed", run)));
    for (const run of refused)
      expect(sequenceOf("run.failed", run)).toBeLessThanOrEqual(firstCompletion);
    // The parent's next model call cannot fit either.
    expect(parentFailed).toMatchObject({ code: "budget_exceeded" });
    const tree = await budget("session", "fan-1");
    expect(Number(tree["spentTokens"])).toBeLessThanOrEqual(1300);
    expect(tree).toMatchObject({ spentTokens: "1040", calls: "3", reservedTokens: "0" });

    // troupe usage --tree: the spend attributed per subagent session.
    const text = await usage(["--tree", "fan-1"]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^session\s+agent\s+calls\s+input\s+output\s+tokens\s+cost \(USD\)$/);
    expect(lines[1]).toMatch(/^fan-1\s+fanout\s+1\s+10\s+10\s+20\s+0\.000050$/);
    const workerLines = lines.filter((line) => line.includes("fanout--worker"));
    expect(workerLines).toHaveLength(2);
    for (const line of workerLines)
      expect(line).toMatch(
        /^ {2}sub-t[0-9a-f]{32}\s+fanout--worker\s+1\s+10\s+500\s+510\s+0\.002010$/,
      );
    expect(lines.at(-2)).toMatch(/^total\s+3\s+30\s+1010\s+1040\s+0\.004070$/);
    expect(lines.at(-1)).toBe("reserved  none");
    const day = new Date().toISOString().slice(0, 10);
    const agentDay = await usage(["--agent", "fanout", "--day", day, "--json"]);
    expect(JSON.parse(agentDay.stdout)).toMatchObject({
      kind: "agent_day",
      agent: "fanout",
      day,
      budget: { tokens: 1040, inputTokens: 30, outputTokens: 1010, calls: 3, reservedTokens: 0 },
    });
    log.stop();
  }, 60_000);

  it("a subagent's calls count against the delegating run's budget: the parent run's limit stops the subagent", async () => {
    const log = followSession(cluster.nats, "del-1");
    await send("del-1", "delegator", "delegate the ticking");
    const parentFailed = await log.first("run.failed", "run/del-1", 30_000);
    await idle(log, "del-1");

    const [child] = log.payloads("subagent.started").map((payload) => String(payload["subagent"]));
    expect(child).toMatch(/^session\/sub-t[0-9a-f]{32}$/);
    const childId = child!.replace(/^session\//, "");
    // The ticker's own run may spend 100 000 tokens; the delegating run (del-1/r1) only
    // 1 000: 20 (the delegator's call) + 3 × 300 (the ticker's) = 920, and the 4th ticker
    // call's worst case does not fit.
    const [childFailed] = log.payloads("run.failed", `run/${childId}`);
    expect(childFailed).toMatchObject({ runId: "r1", code: "budget_exceeded" });
    expect(String(childFailed!["message"])).toContain("the run budget del-1/r1 is spent");
    expect(log.ofType("run.completed", `run/${childId}`)).toHaveLength(0);
    // The delegator's next model call meets the same budget.
    expect(parentFailed).toMatchObject({ runId: "r1", code: "budget_exceeded" });
    expect(String(parentFailed["message"])).toContain("the run budget del-1/r1 is spent");
    expect(await budget("run", "del-1/r1")).toMatchObject({
      spentTokens: "920",
      calls: "4",
      reservedTokens: "0",
    });
    expect(await budget("run", `${childId}/r1`)).toMatchObject({ spentTokens: "900", calls: "3" });
    log.stop();
  }, 60_000);

  it("a host SIGKILLed between reserve and settle: the re-run neither leaks the reservation nor counts twice", async () => {
    const extra = await cluster.startHost({}, { entry: BUDGET_HOST });
    const ids = cluster.hosts.map((host) => host.hostId);
    await cluster.waitForBalance(ids, 20_000);
    const owners = await cluster.owners();
    const sessionId = Array.from({ length: 100 }, (_, index) => `slow-${index}`).find(
      (id) => owners[shardOf(parseAddress(`run/${id}`), cluster.shardCount)] === extra.hostId,
    )!;
    const log = followSession(cluster.nats, sessionId);
    await send(sessionId, "slowpoke", "take");
    await log.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 3,
      20_000,
      "three deltas",
    );
    // Mid-call: the reservation is held, nothing is spent yet.
    const reservation = keys.spendReservation(sessionId, "r1.m1.a1");
    expect(await cluster.redis.hget(reservation, "state")).toBe("reserved");
    const held = await budget("session", sessionId);
    expect(Number(held["reservedTokens"])).toBeGreaterThan(4096);
    expect(held["spentTokens"]).toBeUndefined();

    extra.signal("SIGKILL");
    const completed = await log.first("run.completed", `run/${sessionId}`, 30_000);
    await idle(log, sessionId);
    expect(completed["usage"]).toEqual({ inputTokens: 100, outputTokens: 50 });
    expect(await cluster.redis.hget(reservation, "state")).toBe("settled");
    expect(await budget("session", sessionId)).toMatchObject({
      spentTokens: "150",
      spentMicroUsd: "300",
      calls: "1",
      reservedTokens: "0",
      reservedMicroUsd: "0",
    });
    expect(await cluster.redis.zscore(keys.spendReservations(), reservation)).toBeNull();
    expect(await new SpendReport(cluster.redis, keys).session(sessionId)).toMatchObject({
      agent: "slowpoke",
      rootSessionId: sessionId,
      tokens: 150,
      costUsd: 0.0003,
      calls: 1,
    });
    log.stop();
  }, 60_000);
});
