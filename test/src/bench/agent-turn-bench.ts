/**
 * Agent-turn benchmark (issue #12): turns of a zero-latency scripted agent
 * through the public client against one host child process on local NATS
 * JetStream and Redis, beside the raw floor of their hops measured in the same
 * run. Rows: (a) plain turn, (b) one read tool, (c) one auto-allowed write tool —
 * sequential, p50/p99, CPU per turn and a per-hop breakdown from the journal's
 * timestamps; (d) message 1 vs message 500 of one session; (e) 100 and 200
 * sessions in flight; (f) 10,000 new sessions with host memory, Redis and stream
 * growth before, right after and after passivation; (g) plain and one-read-tool
 * turns through the real `troupe dev` (gateway, metrics and all) beside (a) and
 * (b), sequential and a new session each with `sendAndWait` (the latter on the
 * bare host too); then Restate side by side (`restate/`: the equivalent
 * plain and one-tool turns through `restate-server` from npm, sequential and
 * 100/200 in flight; skipped, saying why, where it cannot start). Prints the Markdown report
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
import { TroupeClient } from "@troupe/client";
import { hostSettingsSchema } from "@troupe/runtime";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import { count, ms } from "./format-numbers.js";
import { collectMachineFacts, type MachineFacts } from "./machine-facts.js";
import { writeResultSection } from "./results-file.js";
import { runRestatePhase } from "./restate/run-restate-phase.js";
import type { RestateTurnKind } from "./restate/turn-object.js";
import { devTurnKinds, type DevTurnKind } from "./turns/dev-turn-kinds.js";
import { measureConcurrentTurns } from "./turns/measure-concurrent-turns.js";
import { measureDevTurns, type DevTurnsResult } from "./turns/measure-dev-turns.js";
import { measureLongSession, type LongSessionResult } from "./turns/measure-long-session.js";
import { measureManySessions, type ManySessionsResult } from "./turns/measure-many-sessions.js";
import {
  measureNewSessionTurns,
  type NewSessionTurnsResult,
} from "./turns/measure-new-session-turns.js";
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
/** Restate's runs beside (e): its `oneTool` handler stands beside our read tool turn. */
const restateConcurrentRuns: readonly { kind: RestateTurnKind; inFlight: number }[] = [
  { kind: "plain", inFlight: 100 },
  { kind: "plain", inFlight: 200 },
  { kind: "oneTool", inFlight: 100 },
  { kind: "oneTool", inFlight: 200 },
];
/** Longest start of `restate-server`, of its endpoint and of the registration, each; then Restate is skipped. */
const restateReadyTimeoutMs = 30_000;
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
  const newSession: Record<DevTurnKind, NewSessionTurnsResult | undefined> = {
    plain: undefined,
    read: undefined,
  };
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
    // Row (g)'s new-session-per-turn turns, on the bare host for the ratio.
    await attempt("new-session turns, bare host", async () => {
      const natsUrl = main.cluster.servers.natsUrl;
      const client = resources.track(await TroupeClient.connect({ natsUrl }), (c) => c.close());
      try {
        for (const kind of devTurnKinds) {
          progress(`(g) bare host: ${kind} turns, a new session each (sendAndWait)`);
          newSession[kind] = await attempt(`new-session ${kind} turns, bare host`, async () => {
            const result = await measureNewSessionTurns(client, main.readCpu, {
              prefix: `new-${kind}`,
              text: texts[kind],
              warmupTurns: settings.sequentialWarmupTurns,
              samples: settings.sequentialSamples,
              turnTimeoutMs,
            });
            progress(
              `  p50 ${ms(result.latency.p50Ms)} / p99 ${ms(result.latency.p99Ms)} ms, CPU ${ms(result.cpu.totalMs ?? Number.NaN)} ms per turn`,
            );
            return result;
          });
        }
      } finally {
        await resources.release(client);
      }
    });
    await stopTurnDeployment(main, resources);
  }

  progress("(g) turns through troupe dev");
  const troupeDev: DevTurnsResult | undefined = await attempt(
    "turns through troupe dev",
    async () => {
      const result = await measureDevTurns({
        hosts: 1,
        texts,
        sessions: settings.sequentialSessions,
        warmupTurns: settings.sequentialWarmupTurns,
        samples: settings.sequentialSamples,
        turnTimeoutMs,
        resources,
        progress,
      });
      for (const kind of devTurnKinds) {
        const turns = result.sequential[kind];
        const fresh = result.newSession[kind];
        progress(
          `  ${kind}: sequential p50 ${ms(turns.latency.p50Ms)} / p99 ${ms(turns.latency.p99Ms)} ms; new session each p50 ${ms(fresh.latency.p50Ms)} / p99 ${ms(fresh.latency.p99Ms)} ms`,
        );
      }
      return result;
    },
  );

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

  // Last, with every Troupe deployment stopped, so it does not disturb their rows.
  progress("Restate side by side");
  const restate = await runRestatePhase({
    resources,
    progress,
    attempt,
    settings,
    concurrentRuns: restateConcurrentRuns,
    readyTimeoutMs: restateReadyTimeoutMs,
    turnTimeoutMs,
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
    newSession,
    troupeDev,
    restate,
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
