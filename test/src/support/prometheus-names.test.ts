import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { METRICS, TELEMETRY_SCOPE } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import {
  prometheusLabels,
  prometheusName,
  prometheusSeriesNames,
  troupeSeriesNames,
} from "./prometheus-names.js";

/**
 * The Prometheus names the dashboard and alert rules use (issue #18) are the
 * ones OpenTelemetry's Prometheus exporter really writes: every metric of
 * `METRICS` is recorded once through a meter read by the exporter, and the
 * scrape text must hold `# TYPE <prometheusName> <type>` and each series name
 * with each attribute's label.
 */
async function scrapeText(
  record: (meter: ReturnType<MeterProvider["getMeter"]>) => void,
): Promise<string> {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({ readers: [exporter] });
  record(provider.getMeter(TELEMETRY_SCOPE));
  const { resourceMetrics } = await exporter.collect();
  await provider.shutdown();
  return new PrometheusSerializer().serialize(resourceMetrics);
}

const attributesOf = (attributes: readonly string[]) =>
  Object.fromEntries(attributes.map((attribute) => [attribute, "x"]));

describe("prometheusName", () => {
  it("names every metric of METRICS as the exporter does, with its labels", async () => {
    const text = await scrapeText((meter) => {
      for (const metric of Object.values(METRICS)) {
        const options = { unit: metric.unit };
        const attributes = attributesOf(metric.attributes);
        if (metric.type === "counter") meter.createCounter(metric.name, options).add(1, attributes);
        else if (metric.type === "histogram")
          meter.createHistogram(metric.name, options).record(0.5, attributes);
        else
          meter
            .createObservableGauge(metric.name, options)
            .addCallback((result) => result.observe(3, attributes));
      }
    });
    for (const metric of Object.values(METRICS)) {
      const type = metric.type === "counter" ? "counter" : metric.type;
      expect(text, metric.name).toContain(`# TYPE ${prometheusName(metric)} ${type}\n`);
      for (const series of prometheusSeriesNames(metric)) {
        const line = text.split("\n").find((candidate) => candidate.startsWith(`${series}{`));
        expect(line, `${metric.name}: ${series}`).toBeDefined();
        for (const label of prometheusLabels(metric)) expect(line).toContain(`${label}="x"`);
      }
    }
  });

  it("gives a gauge kept as an up-down counter the same name (no _total)", async () => {
    const text = await scrapeText((meter) =>
      meter
        .createUpDownCounter(METRICS.inboxLag.name, { unit: METRICS.inboxLag.unit })
        .add(4, attributesOf(METRICS.inboxLag.attributes)),
    );
    expect(text).toContain(`# TYPE ${prometheusName(METRICS.inboxLag)} gauge\n`);
    expect(prometheusName(METRICS.inboxLag)).toBe("troupe_inbox_lag");
  });

  it("spells the names the operator guide and the rules expect", () => {
    expect(prometheusName(METRICS.messagesProcessed)).toBe("troupe_messages_processed_total");
    expect(prometheusSeriesNames(METRICS.stepDuration)).toEqual([
      "troupe_step_duration_bucket",
      "troupe_step_duration_sum",
      "troupe_step_duration_count",
    ]);
    expect(prometheusName(METRICS.tokenUsage)).toBe("gen_ai_client_token_usage");
    expect(prometheusName(METRICS.deadLetters)).toBe("troupe_dead_letters_total");
    expect(prometheusLabels(METRICS.toolCalls)).toEqual([
      "troupe_tool_effect_class",
      "troupe_tool_outcome",
    ]);
    expect(troupeSeriesNames.get("troupe_effect_duration_count")).toBe(METRICS.effectDuration);
    expect(troupeSeriesNames.has("troupe_step_duration")).toBe(false);
  });
});
