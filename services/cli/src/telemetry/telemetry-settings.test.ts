import { context, propagation, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { startTelemetry } from "./start-telemetry.js";
import { telemetrySettings } from "./telemetry-settings.js";
import { traceLogFields } from "./trace-log-fields.js";

describe("telemetrySettings reads the standard OTEL_* variables (issue #18)", () => {
  it("nothing configured: tracing and metrics off", () => {
    expect(telemetrySettings({})).toEqual({
      disabled: false,
      tracing: false,
      environmentMetrics: false,
      serviceName: undefined,
    });
  });

  it("an OTLP endpoint or a traces exporter turns tracing on; `none` and OTEL_SDK_DISABLED keep it off", () => {
    expect(
      telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }).tracing,
    ).toBe(true);
    expect(
      telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }).tracing,
    ).toBe(true);
    expect(telemetrySettings({ OTEL_TRACES_EXPORTER: "otlp" }).tracing).toBe(true);
    expect(
      telemetrySettings({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" })
        .tracing,
    ).toBe(false);
    const disabled = telemetrySettings({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" });
    expect(disabled).toMatchObject({ disabled: true, tracing: false });
  });

  it("metrics exporters from the environment only when OTEL_METRICS_EXPORTER names one, not from an endpoint alone", () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" }).environmentMetrics).toBe(
      false,
    );
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: "otlp" }).environmentMetrics).toBe(true);
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: "none" }).environmentMetrics).toBe(false);
    expect(telemetrySettings({ OTEL_SERVICE_NAME: " shop " }).serviceName).toBe("shop");
  });
});

describe("startTelemetry", () => {
  afterEach(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it("starts no SDK without OTEL_* configuration: spans stay no-ops and logs get no ids", async () => {
    const telemetry = startTelemetry({ serviceName: "troupe-cli", env: {} });
    expect(telemetry.started).toBe(false);
    const span = trace.getTracer("t").startSpan("x");
    expect(span.isRecording()).toBe(false);
    context.with(trace.setSpan(context.active(), span), () => {
      expect(traceLogFields()).toEqual({});
    });
    await telemetry.shutdown();
  });

  it("with a traces exporter configured, spans record and logs inside one carry its trace and span ids", async () => {
    const telemetry = startTelemetry({
      serviceName: "troupe-host",
      hostId: "h1",
      env: { OTEL_TRACES_EXPORTER: "console", OTEL_METRICS_EXPORTER: "none" },
    });
    expect(telemetry).toMatchObject({ started: true, tracing: true });
    const span = trace.getTracer("t").startSpan("x");
    expect(span.isRecording()).toBe(true);
    const fields = context.with(trace.setSpan(context.active(), span), () => traceLogFields());
    expect(fields).toEqual({
      trace_id: span.spanContext().traceId,
      span_id: span.spanContext().spanId,
    });
    expect(fields.trace_id).toMatch(/^[\da-f]{32}$/);
    const headers: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), headers);
    expect(headers.traceparent).toContain(span.spanContext().traceId);
    expect(traceLogFields()).toEqual({}); // outside the span
    await telemetry.shutdown();
  });
});
