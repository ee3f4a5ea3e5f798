import type { BenchResources } from "../bench-resources.js";
import { counterRecordSizes } from "../counter-record-sizes.js";
import type { LatencySummary } from "../latency-summary.js";
import { measurePublishToEvent } from "../measure-publish-to-event.js";
import { measureThroughput } from "../measure-throughput.js";

/** The raw floor of one hop (one inbox message), measured in the agent bench's run. */
export interface RawFloor {
  /** Publish → event latency through the raw pipeline, in ms. */
  readonly latency: LatencySummary;
  /** The raw pipeline's rate draining a backlog, in msgs/s. */
  readonly messagesPerSecond: number;
  readonly maxConcurrency: number;
}

/** Options of {@link measureRawFloor}. */
export interface RawFloorOptions {
  readonly shardCount: number;
  readonly maxConcurrency: number;
  readonly actors: number;
  readonly messages: number;
  readonly drainTimeoutMs: number;
  readonly latency: { samples: number; warmup: number; eventTimeoutMs: number };
  readonly resources: BenchResources;
}

/**
 * The raw floor of one hop of a turn, from the actor-host benchmark's raw
 * pipeline (`../raw-pipeline.ts`) on fresh servers: its throughput draining a
 * backlog (`../measure-throughput.ts`), then its sequential publish → event
 * latency (`../measure-publish-to-event.ts`). One hop is what the host must do
 * for any inbox message: delivery, one Redis compare-and-set, one JetStream
 * publish with ack, the ack.
 *
 * @param options - sizes of the run, timeouts and resources.
 * @returns the per-hop latency and rate.
 * @throws Error when the backlog does not drain in time.
 */
export async function measureRawFloor(options: RawFloorOptions): Promise<RawFloor> {
  let latency: LatencySummary | undefined;
  const { rate } = await measureThroughput(
    {
      target: "raw",
      maxConcurrency: options.maxConcurrency,
      actors: options.actors,
      messages: options.messages,
      shardCount: options.shardCount,
      timeoutMs: options.drainTimeoutMs,
      sizes: counterRecordSizes(),
      resources: options.resources,
    },
    async ({ cluster }) => {
      latency = await measurePublishToEvent(cluster.nats, cluster.js, {
        actor: "counter/raw-hop",
        ...options.latency,
      });
    },
  );
  if (!rate.completed || latency === undefined)
    throw new Error(`raw floor backlog not drained within ${options.drainTimeoutMs} ms`);
  return {
    latency,
    messagesPerSecond: rate.messagesPerSecond,
    maxConcurrency: options.maxConcurrency,
  };
}
