import { METRICS, type MetricDefinition } from "@troupe/protocol";

/**
 * How OpenTelemetry's Prometheus exporter (`@opentelemetry/exporter-prometheus`
 * 0.223, `PrometheusSerializer`) names Troupe's metrics (issue #18), so the
 * dashboard, the alert rules and their tests derive every name from `METRICS`
 * instead of spelling it a second time.
 *
 * The exporter's rules, read from its source: every character outside
 * `[a-zA-Z0-9_]` becomes `_` and runs of `_` collapse to one (metric names and
 * label names alike); a monotonic sum (a counter) gets `_total`; a histogram is
 * exposed as `<name>_bucket` (with label `le`), `<name>_sum` and `<name>_count`;
 * gauges (observable gauges and up-down counters) keep the name. Unlike the
 * OpenTelemetry → Prometheus compatibility spec, 0.223 adds no unit suffix
 * (`troupe.step.duration` in `s` is `troupe_step_duration`, not
 * `…_seconds`); `prometheus-names.test.ts` checks these functions against
 * the exporter itself, so an upgrade that changes the rules fails there.
 */

/**
 * A Prometheus metric or label name from an OpenTelemetry one.
 *
 * @param name - an OpenTelemetry instrument name or attribute key, e.g. `troupe.actor.kind`.
 * @returns e.g. `troupe_actor_kind`.
 */
export function prometheusSanitized(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/g, "_").replace(/_{2,}/g, "_");
}

/**
 * The Prometheus name of one metric: the family name the exporter writes in
 * `# TYPE` (counters with `_total`).
 *
 * @param metric - an entry of `METRICS`.
 * @returns e.g. `troupe_messages_processed_total`, `troupe_step_duration`.
 */
export function prometheusName(metric: MetricDefinition): string {
  const name = prometheusSanitized(metric.name);
  return metric.type === "counter" && !name.endsWith("_total") ? `${name}_total` : name;
}

/**
 * The series names one metric appears under in a scrape: a histogram's
 * `_bucket`, `_sum` and `_count`, otherwise its {@link prometheusName}.
 *
 * @param metric - an entry of `METRICS`.
 * @returns the names a PromQL selector may use for it.
 */
export function prometheusSeriesNames(metric: MetricDefinition): string[] {
  const name = prometheusName(metric);
  return metric.type === "histogram" ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
}

/**
 * The Prometheus label names of one metric's attributes.
 *
 * @param metric - an entry of `METRICS`.
 * @returns e.g. `["troupe_actor_kind", "troupe_step_outcome"]`.
 */
export function prometheusLabels(metric: MetricDefinition): string[] {
  return metric.attributes.map((attribute) => prometheusSanitized(attribute));
}

/** Every series name of every metric in `METRICS`, mapped to its metric. */
export const troupeSeriesNames: ReadonlyMap<string, MetricDefinition> = new Map(
  Object.values(METRICS).flatMap((metric) =>
    prometheusSeriesNames(metric).map((name) => [name, metric] as const),
  ),
);
