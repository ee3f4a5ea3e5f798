/**
 * Compaction benchmark (issue #19): message 1 vs message 2,000 of one session
 * whose agent has a small token budget, with the long-session machinery of the
 * turn benchmark (`measureLongSession`: latency send → `run.completed`, CPU per
 * message of the host and servers, inbox messages per turn, over the first and
 * the last window). Prints both windows and their ratios against the long-session
 * goal (`turnGoals.longSession`, ≤ 1.15×), and how many compactions the session had.
 *
 * Run with `npm run bench:compaction -w @troupe/test` (`--quick`: 300 messages).
 * Tears down every server and host it started, also on an error or Ctrl-C.
 */
import { readStream } from "../support/read-stream.js";
import { measurePublishAck } from "./tracing/measure-publish-ack.js";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import { measureLongSession } from "./turns/measure-long-session.js";
import { startTurnDeployment, stopTurnDeployment } from "./turns/turn-deployment.js";
import { judgeAtMost, ratioOf, turnGoals } from "./turns/turn-goals.js";

const quick = process.argv.includes("--quick");
const messages = quick ? 300 : 2_000;
const window = 30;
/** A budget the plain bench conversation reaches after about 20 messages. */
const budget = { maxPromptTokens: 400, keepRecentTokens: 150 };
const timeLimitMs = 900_000;

const { resources, progress, attempt, errors, runToEnd } = startBenchLifecycle(
  "bench:compaction",
  timeLimitMs,
);

async function run(): Promise<number> {
  const deployment = await attempt("start host", () =>
    startTurnDeployment({
      name: "compaction",
      shardCount: 16,
      turnTimeoutMs: 30_000,
      resources,
      hostEnv: {
        TROUPE_BENCH_MAX_PROMPT_TOKENS: String(budget.maxPromptTokens),
        TROUPE_BENCH_KEEP_RECENT_TOKENS: String(budget.keepRecentTokens),
      },
    }),
  );
  if (deployment === undefined) return 1;
  try {
    const sessionId = "compacted-session";
    progress(`one session, ${messages} messages, budget ${budget.maxPromptTokens} tokens`);
    const result = await attempt("message 1 vs message N", () =>
      measureLongSession(deployment, { sessionId, text: "hello", messages, window }),
    );
    if (result === undefined) return 1;
    const compactions = (
      await readStream(
        deployment.cluster.js,
        deployment.cluster.streams.events,
        `troupe.session.${sessionId}.events.session.compacted`,
      )
    ).length;
    // The raw floor on the same servers: one JetStream publish → ack, one at a time.
    const floor = await attempt("raw floor", () => measurePublishAck(deployment.cluster.nats, 500));
    const { first, last } = result;
    const p50 = ratioOf(last.latency.p50Ms, first.latency.p50Ms);
    const hostCpu = ratioOf(last.cpu.byLabelMs.host, first.cpu.byLabelMs.host);
    const fixed = (value: number | undefined, digits = 2) =>
      value === undefined ? "?" : value.toFixed(digits);
    const lines = [
      `compaction benchmark: one session, ${messages} messages, maxPromptTokens ${budget.maxPromptTokens}, keepRecentTokens ${budget.keepRecentTokens}`,
      `compactions: ${compactions}`,
      `| window | p50 (ms) | p99 (ms) | host CPU per message (ms) | total CPU per message (ms) | inbox messages per turn |`,
      `| --- | --- | --- | --- | --- | --- |`,
      ...[first, last].map(
        (part) =>
          `| messages ${part.from}–${part.to} | ${fixed(part.latency.p50Ms)} | ${fixed(part.latency.p99Ms)} | ${fixed(part.cpu.byLabelMs.host)} | ${fixed(part.cpu.totalMs)} | ${fixed(part.inboxMessagesPerTurn)} |`,
      ),
      `| raw floor: JetStream publish → ack | ${fixed(floor?.p50Ms)} | ${fixed(floor?.p99Ms)} | — | — | — |`,
      `ratio last ÷ first: p50 time ×${fixed(p50, 3)}, host CPU ×${fixed(hostCpu, 3)}`,
      `goal (messages ${last.from}–${last.to} ÷ messages ${first.from}–${first.to} ≤ ${turnGoals.longSession.maxRatio}× in p50 time and host CPU per message, the turn benchmark's long-session goal): ${judgeAtMost({ "p50 time": p50, "host CPU": hostCpu }, turnGoals.longSession.maxRatio, "×")}`,
    ];
    process.stdout.write(`\n${lines.join("\n")}\n`);
  } finally {
    await stopTurnDeployment(deployment, resources);
  }
  return errors.length === 0 ? 0 : 1;
}

await runToEnd(run);
