import type { CounterRecordSizes } from "./counter-record-sizes.js";
import type { LatencySummary } from "./latency-summary.js";
import type { MachineFacts } from "./machine-facts.js";
import type { ActivationResult } from "./measure-activation.js";
import type { DrainRate } from "./measure-drain-rate.js";

/** Throughput runs at one concurrency, in run order. */
export interface ThroughputResult {
  readonly maxConcurrency: number;
  readonly hostRuns: readonly DrainRate[];
  readonly rawRuns: readonly DrainRate[];
}

/** Everything one benchmark run measured (a part is missing when its phase failed). */
export interface BenchResults {
  readonly facts: MachineFacts | undefined;
  readonly loadAverageAtEnd1m: number;
  readonly actors: number;
  readonly messages: number;
  readonly shardCount: number;
  readonly sizes: CounterRecordSizes;
  readonly throughput: readonly ThroughputResult[];
  readonly latency: { readonly host: LatencySummary; readonly raw: LatencySummary } | undefined;
  readonly activation: ActivationResult | undefined;
  readonly failoverMs: readonly number[] | undefined;
  readonly leaseTtlMs: number;
  readonly errors: readonly string[];
  readonly durationMs: number;
}
