import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import type { Logger } from "pino";

/** Event-loop delay over one window, in ms (see {@link EventLoopMonitor}). */
export interface EventLoopDelay {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** Options of {@link EventLoopMonitor}. */
export interface EventLoopMonitorOptions {
  /** Length of a window, in ms; default 5 000. */
  readonly windowMs?: number;
  /**
   * A window whose largest delay passes this (ms) is logged at warn level and
   * makes {@link EventLoopMonitor.delayed} true; the host passes a quarter of
   * its lease TTL.
   */
  readonly warnAboveMs: number;
  readonly logger: Logger;
  /** What the warning adds to the log record (e.g. the lease TTL). */
  readonly context?: Record<string, unknown>;
}

/** Sampling resolution of the delay histogram, in ms (Node's default is 10). */
const RESOLUTION_MS = 10;

/**
 * Measures the host's event-loop delay (docs/decisions/0047) with
 * `perf_hooks.monitorEventLoopDelay`: the figures of the latest complete
 * window (p50, p99, max), read by the `nodejs.eventloop.delay.*` gauges and
 * `/readyz`. A window whose max passes `warnAboveMs` is logged once, with the
 * figures; synchronous work that blocked the loop shows as one long delay in
 * the window in which it ended.
 *
 * @see https://nodejs.org/api/perf_hooks.html#perf_hooksmonitoreventloopdelayoptions
 * @see https://opentelemetry.io/docs/specs/semconv/runtime/nodejs-metrics/
 */
export class EventLoopMonitor {
  readonly #histogram: IntervalHistogram;
  readonly #options: EventLoopMonitorOptions;
  readonly #windowMs: number;
  #timer: NodeJS.Timeout | undefined;
  #last: EventLoopDelay = { p50Ms: 0, p99Ms: 0, maxMs: 0 };

  constructor(options: EventLoopMonitorOptions) {
    this.#options = options;
    this.#windowMs = options.windowMs ?? 5_000;
    this.#histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  }

  /** Starts measuring (a timer per window, unref'd). */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#histogram.enable();
    this.#timer = setInterval(() => this.#endWindow(), this.#windowMs);
    this.#timer.unref();
  }

  /** Stops measuring. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#histogram.disable();
  }

  /** The latest complete window's figures. */
  get last(): EventLoopDelay {
    return this.#last;
  }

  /** True while the latest window's largest delay passed `warnAboveMs`. */
  get delayed(): boolean {
    return this.#last.maxMs > this.#options.warnAboveMs;
  }

  #endWindow(): void {
    const histogram = this.#histogram;
    // A sample is the time between two ticks of a timer of RESOLUTION_MS: an
    // idle loop reads about RESOLUTION_MS, so that much is taken off (the
    // delay is what comes on top). An empty window (no sample) reads as 0.
    const toMs = (ns: number) => Math.max(0, Math.round(ns / 1e4) / 100 - RESOLUTION_MS);
    const sampled = histogram.count > 0;
    this.#last = {
      p50Ms: sampled ? toMs(histogram.percentile(50)) : 0,
      p99Ms: sampled ? toMs(histogram.percentile(99)) : 0,
      maxMs: sampled ? toMs(histogram.max) : 0,
    };
    histogram.reset();
    if (this.delayed) {
      this.#options.logger.warn(
        {
          ...this.#options.context,
          eventLoopDelayMaxMs: this.#last.maxMs,
          eventLoopDelayP99Ms: this.#last.p99Ms,
          warnAboveMs: this.#options.warnAboveMs,
        },
        `the event loop was blocked for up to ${this.#last.maxMs} ms (over ${this.#options.warnAboveMs} ms, a quarter of the lease TTL): synchronous work is holding the host`,
      );
    }
  }
}
