/** Whether a run of the tracing benchmark exports traces. */
export type TracingMode = "off" | "on";

/**
 * The environment of the benchmark's `troupe host` processes (issue #18), by
 * the standard OpenTelemetry variables the CLI reads: "off" sets none (and
 * `withoutOpenTelemetryVariables` removes any inherited), "on" exports every
 * span (sampler `always_on`) as OTLP/HTTP JSON to `endpoint`, with metrics and
 * logs exporters off so only tracing is measured.
 *
 * @param mode - off or on.
 * @param endpoint - the OTLP receiver, e.g. `http://127.0.0.1:4318`.
 * @param serviceName - `OTEL_SERVICE_NAME`.
 * @returns the variables to add.
 */
export function tracingEnvironment(
  mode: TracingMode,
  endpoint: string,
  serviceName: string,
): Record<string, string> {
  if (mode === "off") return {};
  return {
    OTEL_SERVICE_NAME: serviceName,
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_TRACES_SAMPLER: "always_on",
    OTEL_METRICS_EXPORTER: "none",
    OTEL_LOGS_EXPORTER: "none",
  };
}

/**
 * Removes every `OTEL_*` variable from an environment, so a benchmark started
 * from a shell with tracing configured still measures "off" without it.
 *
 * @param environment - e.g. `process.env`; changed in place.
 * @returns the names removed.
 */
export function withoutOpenTelemetryVariables(environment: NodeJS.ProcessEnv): string[] {
  const removed = Object.keys(environment).filter((name) => name.startsWith("OTEL_"));
  for (const name of removed) delete environment[name];
  return removed;
}
