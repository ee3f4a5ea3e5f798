import { count, ms } from "../format-numbers.js";
import { restateReportNotes } from "../restate/restate-report.js";
import { turnGoals } from "./turn-goals.js";
import type { AgentTurnResults } from "./turn-results.js";

/**
 * The notes under the agent-turn tables: what each row measures, how the raw
 * floor and CPU are computed, concurrent latencies, errors.
 *
 * @param results - what the run measured.
 * @returns one Markdown list item text per note.
 */
export function turnReportNotes(results: AgentTurnResults): string[] {
  const { settings, rawFloor, manySessions } = results;
  const concurrentLatency = results.concurrent
    .filter((run) => run.result !== undefined)
    .map(
      (run) =>
        `${run.kind} ${run.inFlight} in flight: ${count(run.result?.turns ?? 0)} turns in ${count(run.result?.windowMs ?? 0)} ms, p50 ${ms(run.result?.latency.p50Ms ?? 0)} / p99 ${ms(run.result?.latency.p99Ms ?? 0)} ms`,
    );
  const touched = manySessions === undefined ? undefined : manySessions.sessions * 2;
  const heapPerTouched =
    manySessions === undefined || touched === undefined
      ? undefined
      : (manySessions.after.host.heapUsedBytes - manySessions.before.host.heapUsedBytes) / touched;
  return [
    `A turn is \`TroupeClient.send\` of a user message until its \`run.completed\` arrives on a core NATS subscription to \`troupe.session.*.events.run.completed\`; the next message goes out after that. One host child process (\`test/src/fixtures/bench-agent-host.ts\`, default settings, ${settings.shardCount} shards) serves the \`bench\` agent: the scripted demo model with no latency, \`${settings.texts.plain}\` → an answer, \`${settings.texts.read}\` → one \`read\` tool call then an answer, \`${settings.texts.write}\` → one \`non_idempotent_write\` tool call allowed by policy (no approval) then an answer; both tools return at once.`,
    `Sequential rows (a–c): ${settings.sequentialWarmupTurns} warm-up turns, then ${settings.sequentialSamples} measured turns round robin over ${settings.sequentialSessions} sessions. (d): one new session, ${settings.longSessionMessages} sequential plain turns; its first and last ${settings.longSessionWindow} are measured (the first includes the session's creation and its \`agent.resolve\`); the ratio row judges the p50 time and the host's CPU per message.`,
    `Hops per turn: inbox (journal) messages stored over the measured turns ÷ turns — a plain turn journals \`user.message\`, \`run.start\`, the model result and \`run.finished\` (stored after \`run.completed\`, so one hop is off the measured path); a one-tool turn adds \`tool.start\`, the tool result, \`tool.finished\` and a second model result.`,
    rawFloor === undefined
      ? "Raw floor: not measured (see the errors)."
      : `Raw floor, measured in this run on its own fresh servers: the actor-host benchmark's raw pipeline (per inbox message: delivery from a per-shard pull consumer, one \`EVALSHA\` compare-and-set, one JetStream publish with ack, the ack). One hop: its sequential publish → event latency, p50 ${ms(rawFloor.latency.p50Ms)} / p99 ${ms(rawFloor.latency.p99Ms)} ms (${rawFloor.latency.count} samples); latency floor = hops per turn × that. Throughput floor = its backlog drain rate (${count(rawFloor.messagesPerSecond)} msgs/s at maxConcurrency ${rawFloor.maxConcurrency}) ÷ hops per turn.`,
    "CPU per turn: CPU time of the host process, `nats-server` and `redis-server` over the measured turns ÷ turns, summed over each process's threads from `/proc/<pid>/task/<tid>/schedstat` (ns resolution); the benchmark's own process (the client) is shown apart and not in the total.",
    ...devNotes(results),
    `Concurrent rows (e): that many sessions each send their next message when their previous run completed; ${count(settings.concurrentWarmupMs)} ms warm-up (and until every session completed a turn), then a window of at least ${count(settings.concurrentWindowMs)} ms that lasts until every session completed two turns in it. Sessions started together stay in step (their turns complete in waves), so the rate is the sum of each session's own rate in the window, (its completions − 1) ÷ (its last − first completion); CPU per turn is the window's ÷ (rate × window); hops per turn are those of the same kind's sequential row (a warm turn journals the same messages alone or among others; counting them in a window of waves is as uneven as counting turns). Turns completed in the window and their latency: ${concurrentLatency.join("; ") || "none"}.`,
    manySessions === undefined
      ? "10,000 sessions: not measured (see the errors)."
      : `New sessions (f): a fresh deployment whose host has \`passivateAfterMs\` and \`historyRetentionMs\` ${count(settings.manySessionsPassivateAfterMs)} (\`maxActiveActors\` ${count(settings.manySessionsMaxActiveActors)}); ${count(manySessions.sessions)} sessions get one \`${settings.texts.plain}\` each, ${manySessions.inFlight} in flight, after a warm-up whose actors were passivated before the baseline. Host memory is \`process.memoryUsage()\` after two full GCs (\`--expose-gc\`), asked over NATS. Actors idle for \`passivateAfterMs\` are passivated during the run, so "per active actor" is (heap right after − heap after passivation) ÷ the actors the host reported active right after; (right after − before) ÷ ${count(touched ?? 0)} actors touched (a session and a run each) is ${heapPerTouched === undefined ? "—" : `${(heapPerTouched / 1000).toFixed(2)} KB`}. "Back near the baseline" is judged as heap after passivation ≤ 1.1 × before. Redis and stream growth per session are taken once the host passivated every actor (${count(manySessions.passivationMs)} ms after the last turn), the kept generations expired and Redis's key count stopped falling — what an idle session keeps; the first turn of a session also journals its \`agent.resolve\` result.`,
    ...restateReportNotes(results),
    ...results.errors.map((error) => `Error: ${error}`),
    `Duration: ${(results.durationMs / 1000).toFixed(1)} s.`,
  ];
}

/** The note on row (g), when it ran. */
function devNotes(results: AgentTurnResults): string[] {
  if (!("troupeDev" in results)) return [];
  const { settings, troupeDev: dev } = results;
  const how =
    dev === undefined
      ? "(not measured: see the errors)"
      : `(\`TROUPE_CLI_MODE=${dev.cliMode}\`, the code the bare host runs; ready ${(dev.startupMs / 1000).toFixed(1)} s after the spawn; it printed ${count(dev.linesDuringTurns)} lines during the turns)`;
  return [
    `Row (g), through \`troupe dev\`: the real \`troupe dev --agent test/src/fixtures/bench-agent.ts --hosts ${dev?.hosts ?? 1} --nats-port 0 --redis-port 0 --gateway-port 0 --fresh\` as a child process with a temporary \`TROUPE_HOME\` ${how} — its own servers, its \`troupe host\` child with the metrics endpoint, its gateway and fleet index and its host log formatter at its default level, as a user gets them. Ready when its banner's last line arrives on stdout; stopped with SIGINT. Sequential rows: the same \`TurnDriver\`, ${settings.sequentialWarmupTurns} warm-up and ${settings.sequentialSamples} measured turns over ${settings.sequentialSessions} sessions as (a) and (b), judged as dev p50 ÷ bare host p50 ≤ ${turnGoals.troupeDev.maxRatio}×. A new session each: \`await client.sendAndWait(<new session>, text)\`, one at a time, ${settings.sequentialWarmupTurns} warm-up and ${settings.sequentialSamples} measured, through \`troupe dev\` and on the bare host (in its phase) — how the issue timed \`troupe dev\`; a turn then includes reading the events stream's last sequence, the session's creation with its \`agent.resolve\`, and following its events. Its CPU per turn counts every process of \`troupe dev\`: \`troupe dev\` itself (gateway, log formatter), its host, \`nats-server\` and \`redis-server\`. Bare host and \`troupe dev\` run a few minutes apart, not interleaved: on a shared machine their ratio moves with the load.`,
  ];
}
