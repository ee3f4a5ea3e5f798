import { type ContextManager, DiagLogLevel, diag } from "@opentelemetry/api";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import type { IMetricReader } from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { ATTRIBUTES } from "@troupe/protocol";
import { onceDiagLogger } from "./once-diag-logger.js";
import { telemetrySettings } from "./telemetry-settings.js";

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /** `service.name` unless `OTEL_SERVICE_NAME` is set: `troupe-host`, `troupe-cli`. */
  readonly serviceName: string;
  /** The host's id: resource attributes `troupe.host.id` and `service.instance.id`. */
  readonly hostId?: string;
  /**
   * Metric readers to register (e.g. a Prometheus exporter serving `/metrics`):
   * given any, the SDK starts even without `OTEL_*` tracing settings, and
   * metric exporters named by `OTEL_METRICS_EXPORTER` are not added.
   */
  readonly metricReaders?: readonly IMetricReader[];
  /** The environment to read (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Longest a span export may take, with its retries, in ms, unless
   * `OTEL_EXPORTER_OTLP_TIMEOUT` or `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` says
   * (the SDK's default is 10 000): a short-lived client command passes a few
   * seconds so that a collector that cannot be reached does not hold its exit.
   */
  readonly exportTimeoutMs?: number;
  /** Where the SDK's warnings go, each once (default: standard error); see `onceDiagLogger`. */
  readonly warn?: (line: string) => void;
}

/** A started (or not started) OpenTelemetry SDK. */
export interface Telemetry {
  /** Whether spans are recorded and exported. */
  readonly tracing: boolean;
  /** Whether an SDK was started at all. */
  readonly started: boolean;
  /**
   * Flushes pending spans and metrics and stops the SDK; waits at most
   * `timeoutMs` (default 5000 ms) so a dead collector never holds up a
   * shutdown. Safe to call twice; a no-op when nothing was started.
   */
  shutdown(timeoutMs?: number): Promise<void>;
}

const NOTHING_STARTED: Telemetry = {
  tracing: false,
  started: false,
  shutdown: () => Promise.resolve(),
};

/**
 * Starts the OpenTelemetry Node SDK for a `troupe` process when the standard
 * `OTEL_*` environment variables configure it (docs/decisions/0036) — the one
 * place the CLI registers an SDK; the libraries use only `@opentelemetry/api`.
 *
 * Tracing (see `telemetrySettings`): the exporter, OTLP protocol and endpoint,
 * batch delays (`OTEL_BSP_SCHEDULE_DELAY`) and sampler come from the
 * environment; the W3C trace-context (and baggage) propagator, or
 * `OTEL_PROPAGATORS`, and the AsyncLocalStorage context manager are
 * registered. No `OTEL_*` configuration and no metric readers: nothing is
 * started and every span stays a no-op. No OpenTelemetry log export (logs go
 * to pino, with `trace_id`/`span_id`).
 *
 * @param options - default service name, host id, metric readers.
 * @returns the handle; call `shutdown()` on a graceful stop (SIGTERM) to flush.
 * @example
 * ```ts
 * const telemetry = startTelemetry({ serviceName: "troupe-host", hostId });
 * process.once("SIGTERM", () => void telemetry.shutdown());
 * ```
 */
export function startTelemetry(options: StartTelemetryOptions): Telemetry {
  const settings = telemetrySettings(options.env ?? process.env);
  const readers = [...(options.metricReaders ?? [])];
  if (settings.disabled) return NOTHING_STARTED;
  if (!settings.tracing && !settings.environmentMetrics && readers.length === 0) {
    return NOTHING_STARTED;
  }
  if (settings.environmentMetrics && readers.length > 0) {
    diag.warn(
      "troupe: OTEL_METRICS_EXPORTER is ignored: this process registers its own metric readers",
    );
  }
  const hostAttributes =
    options.hostId === undefined
      ? {}
      : { [ATTRIBUTES.hostId]: options.hostId, "service.instance.id": options.hostId };
  const env = options.env ?? process.env;
  if (
    options.exportTimeoutMs !== undefined &&
    env.OTEL_EXPORTER_OTLP_TIMEOUT === undefined &&
    env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT === undefined
  ) {
    // The SDK reads its exporter settings from process.env.
    process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT = String(options.exportTimeoutMs);
  }
  const sdk = new NodeSDK({
    resource: defaultResource().merge(resourceFromAttributes(hostAttributes)),
    ...(settings.serviceName === undefined ? { serviceName: options.serviceName } : {}),
    // Readers given: only those. None given: the environment's, only when
    // OTEL_METRICS_EXPORTER asks (the SDK would otherwise default to OTLP).
    ...(readers.length > 0 || !settings.environmentMetrics ? { metricReaders: readers } : {}),
    // Spans from the environment when tracing is on; none at all otherwise.
    ...(settings.tracing ? {} : { spanProcessors: [] }),
    // Without tracing, no propagator: nothing is injected into messages.
    ...(settings.tracing ? {} : { textMapPropagator: null }),
    ...(settings.tracing ? {} : { contextManager: null as unknown as ContextManager }),
    logRecordProcessors: [],
  });
  sdk.start();
  // A failed export says so, once (the SDK is silent without a diag logger);
  // OTEL_LOG_LEVEL keeps the SDK's own console logger.
  const warnings = onceDiagLogger(options.warn);
  if (env.OTEL_LOG_LEVEL === undefined) {
    diag.setLogger(warnings, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  }
  let stopped: Promise<void> | undefined;
  return {
    tracing: settings.tracing,
    started: true,
    shutdown(timeoutMs = 5000) {
      stopped ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        sdk.shutdown().then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          (error: unknown) => {
            // The last flush failed (e.g. the collector cannot be reached).
            warnings.error("could not export the last spans:", error);
            clearTimeout(timer);
            resolve();
          },
        );
      });
      return stopped;
    },
  };
}
