/**
 * Agent-turn benchmark (issue #12): turns of a zero-latency scripted agent
 * through the public client against one host child process on local NATS
 * JetStream and Redis, beside the raw floor of their hops measured in the same
 * run. Rows: (a) plain turn, (b) one read tool, (c) one auto-allowed write tool —
 * sequential, p50/p99, CPU per turn and a per-hop breakdown from the journal's
 * timestamps; (d) message 1 vs message 500 of one session; (e) 100 and 200
 * sessions in flight; (f) 10,000 new sessions with host memory, Redis and stream
 * growth before, right after and after passivation. Prints the Markdown report
 * and writes it to its section of `latest-results.md` beside this file.
 *
 * Run with `npm run bench:turns` (from the repository root; `npm run bench` runs
 * the actor-host benchmark first). It stops by itself within {@link timeLimitMs},
 * tearing down every server and host it started, also on an error, Ctrl-C or the
 * time limit; the exit code is 1 when a phase failed. `--quick` runs every
 * phase much smaller, as a smoke test.
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { hostSettingsSchema } from "@troupe/runtime";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import { count, ms } from "./format-numbers.js";
import { collectMachineFacts, type MachineFacts } from "./machine-facts.js";
import { writeResultSection } from "./results-file.js";
import { measureConcurrentTurns } from "./turns/measure-concurrent-turns.js";
import { measureLongSession, type LongSessionResult } from "./turns/measure-long-session.js";
import { measureManySessions, type ManySessionsResult } from "./turns/measure-many-sessions.js";
import { measureRawFloor, type RawFloor } from "./turns/measure-raw-floor.js";
import {
  measureSequentialTurns,
  type SequentialTurnsResult,
} from "./turns/measure-sequential-turns.js";
import {
  startTurnDeployment,
  stopTurnDeployment,
  type TurnDeployment,
} from "./turns/turn-deployment.js";
import { renderTurnReport } from "./turns/turn-report.js";
import type {
  AgentTurnResults,
  AgentTurnSettings,
  ConcurrentRun,
  TurnKind,
} from "./turns/turn-results.js";

/**
 * `--quick`: every phase much smaller (a smoke test of the benchmark itself, in
 * about a minute); its figures are not comparable with a full run and are not
 * written to `latest-results.md`.
 */
const quick = process.argv.includes("--quick");
/** The whole run must end within this, in ms; then everything is torn down and the exit code is 1. */
const timeLimitMs = 600_000;
const shardCount = 64;
/** Longest wait for one turn; generous, as 200 new sessions at once on a busy machine take seconds. */
const turnTimeoutMs = 60_000;
const texts: Record<TurnKind, string> = {
  plain: "hello",
  read: '/tool lookup {"key":"k"}',
  write: '/tool record {"key":"k"}',
};
const settings: AgentTurnSettings = {
  shardCount,
  sequentialSessions: 20,
  sequentialWarmupTurns: 40,
  sequentialSamples: quick ? 40 : 300,
  longSessionMessages: quick ? 80 : 500,
  longSessionWindow: quick ? 10 : 30,
  concurrentWarmupMs: quick ? 500 : 1_500,
  concurrentWindowMs: quick ? 1_000 : 4_000,
  manySessionsPassivateAfterMs: 3_000,
  manySessionsMaxActiveActors: hostSettingsSchema.parse({}).maxActiveActors,
  texts,
};
const concurrentRuns: readonly { kind: TurnKind; inFlight: number }[] = [
  { kind: "plain", inFlight: 100 },
  { kind: "plain", inFlight: 200 },
  { kind: "read", inFlight: 100 },
  { kind: "read", inFlight: 200 },
];
const manySessions = { sessions: quick ? 1_000 : 10_000, inFlight: 200, warmupSessions: 100 };
const rawFloorRun = {
  shardCount,
  maxConcurrency: hostSettingsSchema.parse({}).maxConcurrency,
  actors: 1000,
  messages: quick ? 5_000 : 20_000,
  drainTimeoutMs: 25_000,
  latency: { samples: 500, warmup: 100, eventTimeoutMs: 5_000 },
};
const resultsFile = fileURLToPath(new URL("./latest-results.md", import.meta.url));

const { resources, startedAtMs, progress, attempt, errors, sweepLeftovers, runToEnd } =
  startBenchLifecycle("bench:turns", timeLimitMs);

async function run(): Promise<number> {
  let facts: MachineFacts | undefined;
  progress("raw floor: backlog drain rate and publish → event latency");
  const rawFloor: RawFloor | undefined = await attempt("raw floor", async () => {
    const floor = await measureRawFloor({ ...rawFloorRun, resources });
    progress(
      `raw floor: ${count(floor.messagesPerSecond)} msgs/s, one hop p50 ${ms(floor.latency.p50Ms)} / p99 ${ms(floor.latency.p99Ms)} ms`,
    );
    return floor;
  });

  const sequential: Record<TurnKind, SequentialTurnsResult | undefined> = {
    plain: undefined,
    read: undefined,
    write: undefined,
  };
  let longSession: LongSessionResult | undefined;
  const concurrent: ConcurrentRun[] = [];
  const main = await attempt("start host", () =>
    startTurnDeployment({ name: "turns", shardCount, turnTimeoutMs, resources }),
  );
  if (main !== undefined) {
    facts = await collectMachineFacts(main.cluster.nats, main.cluster.redis);
    for (const kind of ["plain", "read", "write"] as const) {
      progress(`(${kind}) sequential turns`);
      sequential[kind] = await attempt(`sequential ${kind} turns`, async () => {
        const result = await measureSequentialTurns(main, {
          prefix: `seq-${kind}`,
          text: texts[kind],
          sessions: settings.sequentialSessions,
          warmupTurns: settings.sequentialWarmupTurns,
          samples: settings.sequentialSamples,
        });
        progress(
          `  p50 ${ms(result.latency.p50Ms)} / p99 ${ms(result.latency.p99Ms)} ms, ${result.inboxMessagesPerTurn.toFixed(2)} hops, CPU ${ms(result.cpu.totalMs ?? Number.NaN)} ms per turn`,
        );
        return result;
      });
    }
    progress(`(d) one session, ${settings.longSessionMessages} turns`);
    longSession = await attempt("message 1 vs message 500", async () => {
      const result = await measureLongSession(main, {
        sessionId: "long-session",
        text: texts.plain,
        messages: settings.longSessionMessages,
        window: settings.longSessionWindow,
      });
      progress(
        `  p50 ${ms(result.first.latency.p50Ms)} → ${ms(result.last.latency.p50Ms)} ms, host CPU ${ms(result.first.cpu.byLabelMs.host ?? Number.NaN)} → ${ms(result.last.cpu.byLabelMs.host ?? Number.NaN)} ms per message`,
      );
      return result;
    });
    for (const { kind, inFlight } of concurrentRuns) {
      progress(`(e) ${kind} turns, ${inFlight} sessions in flight`);
      const result = await attempt(`concurrent ${kind} turns, ${inFlight} in flight`, async () => {
        const measured = await measureConcurrentTurns(main, {
          prefix: `con-${kind}-${inFlight}`,
          text: texts[kind],
          inFlight,
          warmupMs: settings.concurrentWarmupMs,
          windowMs: settings.concurrentWindowMs,
          maxWindowMs: 30_000,
        });
        progress(
          `  ${count(measured.turnsPerSecond)} turns/s, p50 ${ms(measured.latency.p50Ms)} ms, CPU ${ms(measured.cpu.totalMs ?? Number.NaN)} ms per turn`,
        );
        return measured;
      });
      concurrent.push({ kind, inFlight, result });
    }
    await stopTurnDeployment(main, resources);
  }

  progress(`(f) ${count(manySessions.sessions)} new sessions, one turn each`);
  const many: ManySessionsResult | undefined = await attempt("many sessions", async () => {
    const deployment: TurnDeployment = await startTurnDeployment({
      name: "many-sessions",
      shardCount,
      turnTimeoutMs,
      resources,
      hostSettings: {
        passivateAfterMs: settings.manySessionsPassivateAfterMs,
        // Kept generations expire like the actors passivate, so the idle size is an idle session's.
        historyRetentionMs: settings.manySessionsPassivateAfterMs,
      },
    });
    try {
      const result = await measureManySessions(deployment, {
        prefix: "many",
        text: texts.plain,
        sessions: manySessions.sessions,
        inFlight: manySessions.inFlight,
        warmupSessions: manySessions.warmupSessions,
        passivationTimeoutMs: 30_000,
        historyRetentionMs: settings.manySessionsPassivateAfterMs,
      });
      progress(
        `  ${count(result.turnsPerSecond)} turns/s; heap ${(result.before.host.heapUsedBytes / 1e6).toFixed(1)} → ${(result.after.host.heapUsedBytes / 1e6).toFixed(1)} → ${(result.passivated.host.heapUsedBytes / 1e6).toFixed(1)} MB`,
      );
      return result;
    } finally {
      await stopTurnDeployment(deployment, resources);
    }
  });

  await resources.releaseAll();
  const leftover = await sweepLeftovers();
  if (leftover !== undefined) errors.push(leftover);
  const results: AgentTurnResults = {
    facts,
    loadAverageAtEnd1m: loadavg()[0] ?? 0,
    settings,
    rawFloor,
    sequential,
    longSession,
    concurrent,
    manySessions: many,
    errors,
    durationMs: performance.now() - startedAtMs,
  };
  const report = renderTurnReport(results);
  process.stdout.write(`\n${report}`);
  if (quick) progress("--quick: latest-results.md left as it was");
  else {
    await writeResultSection(resultsFile, "agent-turn", report);
    progress(`wrote ${resultsFile}`);
  }
  return errors.length === 0 ? 0 : 1;
}

await runToEnd(run);
