import type { BenchResults } from "./bench-results.js";
import { count, ms, rate } from "./format-numbers.js";
import type { DrainRate } from "./measure-drain-rate.js";

/**
 * The notes under the report's tables: method of each measurement, every
 * throughput run, the first activation pass, failover runs and errors.
 *
 * @param results - what the run measured.
 * @returns one Markdown list item text per note.
 */
export function reportNotes(results: BenchResults): string[] {
  const spread = results.throughput.map(
    (result) =>
      `maxConcurrency ${result.maxConcurrency}: host ${runRates(result.hostRuns)}, raw ${runRates(result.rawRuns)}`,
  );
  return [
    `Throughput: ${count(results.messages)} \`counter.increment\` messages over \`counter/a0\` … \`counter/a${results.actors - 1}\` (${results.shardCount} shards) are published while nothing consumes; the target then starts and the rate is taken between 10 % and 90 % of the events stored in the events stream (polled every 20 ms). Each run has fresh servers.`,
    "Host: one in-process `ActorHost.start` (its own NATS connection and Redis client, default settings except `shardCount` and `maxConcurrency`), in the same Node process and flags as the raw floor, so both pay the same client libraries and event loop.",
    `Raw floor, per message: delivery from per-shard pull consumers configured as the host's, one \`EVALSHA\` compare-and-set writing ${results.sizes.snapshotBytes} bytes to a hash, one JetStream publish of a ${results.sizes.eventBytes}-byte event with \`Nats-Msg-Id\` and stream ack, then the message ack; one message at a time per actor, \`maxConcurrency\` in flight. No decoding, no machine, no lease check, no history.`,
    `Throughput runs in msgs/s (run order): ${spread.join("; ")}.`,
    "CPU per message: each process's CPU time (user + system) between the polls at the 10 % and 90 % marks, divided by the messages processed in between. `node` is the whole benchmark process, i.e. the in-process host or the raw floor, plus the 20 ms poller; the servers are read from `/proc/<pid>/stat` (10 ms ticks). On this machine the cores bound the rate at cores × 1,000,000 / total µs per message.",
    results.latency === undefined
      ? "Publish → event latency: not measured."
      : `Publish → event latency: ${results.latency.host.count} sequential round trips after warm-up, \`js.publish\` (with its stream ack) to one idle actor until its \`counter.changed\` arrives on a core subscription to \`troupe.counter.<id>.events.>\`; max host ${ms(results.latency.host.maxMs)} ms, raw ${ms(results.latency.raw.maxMs)} ms.`,
    results.activation === undefined
      ? "Activation: not measured."
      : `Activation: \`RedisSnapshotStore.load\` + \`createActor(machine, { snapshot }).getSnapshot()\` for ${results.activation.host.count} distinct actors written by the throughput run (mean stored snapshot ${Math.round(results.activation.meanSnapshotBytes)} bytes), alternating per actor with the raw floor, a bare \`GET\` of the same bytes. Two passes over the same actors; the table shows the second. The first pass, right after the throughput run in the same process (JIT and GC not settled), gave host p50 ${ms(results.activation.firstPass.host.p50Ms)} / p99 ${ms(results.activation.firstPass.host.p99Ms)} ms, raw p50 ${ms(results.activation.firstPass.raw.p50Ms)} / p99 ${ms(results.activation.firstPass.raw.p99Ms)} ms.`,
    results.failoverMs === undefined
      ? "Failover: not measured."
      : `Failover: two \`startHostProcess\` children, a probe actor on the victim's shard gets a message every 20 ms, SIGKILL, clock stops at the first \`counter.changed\` for a message sent after the kill. Runs: ${results.failoverMs.map((value) => `${count(value)} ms`).join(", ")}. The floor printed is the lease TTL (${count(results.leaseTtlMs)} ms); as leases are renewed every 500 ms, a dead host's lease lapses 1,500–2,000 ms after the kill, and the survivor's next rebalance (every 250 ms), consumer re-creation and the message itself come on top.`,
    ...results.errors.map((error) => `Error: ${error}`),
    `Duration: ${(results.durationMs / 1000).toFixed(1)} s.`,
  ];
}

function runRates(runs: readonly DrainRate[]): string {
  return runs.length === 0 ? "none" : runs.map((run) => rate(run.messagesPerSecond)).join(" / ");
}
