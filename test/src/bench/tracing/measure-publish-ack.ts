import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";

/**
 * The raw infrastructure floor of the tracing benchmark (issue #18): one
 * JetStream publish until its stream ack, one at a time, on a scratch
 * file-storage stream of the same servers — what every hop of a turn costs at
 * least.
 *
 * @param nats - a connection to the benchmark's server.
 * @param samples - measured publishes (after 50 warm-up ones).
 * @returns the round trip in ms.
 */
export async function measurePublishAck(
  nats: NatsConnection,
  samples: number,
): Promise<LatencySummary> {
  const jsm = await jetstreamManager(nats);
  await jsm.streams.add({ name: "BENCH_TRACING_FLOOR", subjects: ["bench.tracing.floor"] });
  const js = jetstream(nats);
  const payload = new TextEncoder().encode(
    JSON.stringify({ type: "bench", text: "x".repeat(200) }),
  );
  const durations: number[] = [];
  for (let index = 0; index < samples + 50; index += 1) {
    const startedAt = performance.now();
    await js.publish("bench.tracing.floor", payload);
    if (index >= 50) durations.push(performance.now() - startedAt);
  }
  await jsm.streams.delete("BENCH_TRACING_FLOOR");
  return summarizeLatencies(durations);
}
