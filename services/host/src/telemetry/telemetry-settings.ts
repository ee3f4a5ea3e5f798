/**
 * What the standard OpenTelemetry environment variables ask of a Troupe
 * process (docs/decisions/0036). Pure: reads only `env`.
 *
 * - `OTEL_SDK_DISABLED=true`: nothing at all.
 * - Tracing is on when `OTEL_TRACES_EXPORTER` names an exporter (not `none`),
 *   or when `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 *   is set (and `OTEL_TRACES_EXPORTER` is not `none`): the exporter, protocol,
 *   batch delays and sampler then come from the environment as the
 *   OpenTelemetry SDK reads them
 *   (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
 * - Metrics exporters from the environment only when `OTEL_METRICS_EXPORTER`
 *   names one (not `none`); an OTLP endpoint alone does not start metric
 *   export (the SDK's own default would).
 */
export interface TelemetrySettings {
  /** `OTEL_SDK_DISABLED` is true. */
  readonly disabled: boolean;
  /** Spans are recorded and exported. */
  readonly tracing: boolean;
  /** `OTEL_METRICS_EXPORTER` asks for metric exporters. */
  readonly environmentMetrics: boolean;
  /** `OTEL_SERVICE_NAME`, when set (it wins over the command's default name). */
  readonly serviceName: string | undefined;
}

/**
 * Reads {@link TelemetrySettings} from environment variables.
 *
 * @param env - the environment (default `process.env`).
 * @returns the settings; all off when no `OTEL_*` variable configures anything.
 */
export function telemetrySettings(env: NodeJS.ProcessEnv = process.env): TelemetrySettings {
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  };
  const list = (name: string) =>
    (value(name) ?? "")
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== "");
  const disabled = value("OTEL_SDK_DISABLED")?.toLowerCase() === "true";
  const traces = list("OTEL_TRACES_EXPORTER");
  const tracesOff = traces.length > 0 && traces.every((name) => name === "none");
  const endpoint =
    value("OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined ||
    value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== undefined;
  const metrics = list("OTEL_METRICS_EXPORTER");
  return {
    disabled,
    tracing: !disabled && !tracesOff && (traces.length > 0 || endpoint),
    environmentMetrics: !disabled && metrics.length > 0 && !metrics.includes("none"),
    serviceName: value("OTEL_SERVICE_NAME"),
  };
}
