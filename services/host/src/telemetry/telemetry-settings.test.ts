import { createServer } from "node:net";
import { context, diag, propagation, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";
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
    diag.disable();
    vi.unstubAllEnvs();
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

  it("a collector that cannot be reached is reported once, and a client's export gives up after its timeout", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", `http://127.0.0.1:${port}`);
    vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", undefined);
    vi.stubEnv("OTEL_EXPORTER_OTLP_TIMEOUT", undefined);
    vi.stubEnv("OTEL_LOG_LEVEL", undefined);
    const lines: string[] = [];
    const telemetry = startTelemetry({
      serviceName: "troupe-cli",
      exportTimeoutMs: 300,
      warn: (line) => lines.push(line),
    });
    expect(process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT).toBe("300");
    for (let n = 0; n < 3; n++) trace.getTracer("t").startSpan(`x${n}`).end();
    await telemetry.shutdown(5_000);
    const reports = lines.filter((line) => line.startsWith("troupe: OpenTelemetry"));
    expect(reports.length).toBeGreaterThan(0);
    expect(new Set(reports).size).toBe(reports.length); // each once
    expect(reports.join("")).toMatch(/ECONNREFUSED|export|timeout/i);
  });
});
