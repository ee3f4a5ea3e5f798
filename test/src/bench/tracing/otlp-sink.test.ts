import { describe, expect, it } from "vitest";
import { otlpSpanNames, startOtlpSink } from "./otlp-sink.js";
import { tracingEnvironment, withoutOpenTelemetryVariables } from "./tracing-environment.js";

const exportRequest = {
  resourceSpans: [
    {
      resource: { attributes: [] },
      scopeSpans: [
        { scope: { name: "troupe" }, spans: [{ name: "process session" }, { name: "chat x" }] },
        { scope: { name: "other" }, spans: [{ name: "process session" }] },
      ],
    },
  ],
};

describe("the tracing benchmark's OTLP sink", () => {
  it("reads the span names of an OTLP/HTTP JSON export, and nothing from other bodies", () => {
    expect(otlpSpanNames(exportRequest)).toEqual(["process session", "chat x", "process session"]);
    expect(otlpSpanNames({})).toEqual([]);
    expect(otlpSpanNames(null)).toEqual([]);
  });

  it("counts spans posted to /v1/traces by name, and only those", async () => {
    const sink = await startOtlpSink();
    try {
      const post = (path: string, body: string) =>
        fetch(`${sink.endpoint}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
      expect((await post("/v1/traces", JSON.stringify(exportRequest))).status).toBe(200);
      expect((await post("/v1/metrics", JSON.stringify(exportRequest))).status).toBe(200);
      expect((await post("/v1/traces", "\u0000protobuf")).status).toBe(200);
      expect(sink.spanCount()).toBe(3);
      expect(Object.fromEntries(sink.spansByName())).toEqual({
        "process session": 2,
        "chat x": 1,
      });
      expect(sink.unreadableRequests()).toBe(1);
    } finally {
      await sink.close();
    }
  });

  it("sets the standard OTEL_* variables only when tracing is on, and can strip inherited ones", () => {
    expect(tracingEnvironment("off", "http://127.0.0.1:1", "troupe-host")).toEqual({});
    expect(tracingEnvironment("on", "http://127.0.0.1:1", "troupe-host")).toMatchObject({
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_TRACES_SAMPLER: "always_on",
    });
    const environment: NodeJS.ProcessEnv = { OTEL_SERVICE_NAME: "x", PATH: "/bin" };
    expect(withoutOpenTelemetryVariables(environment)).toEqual(["OTEL_SERVICE_NAME"]);
    expect(environment).toEqual({ PATH: "/bin" });
  });
});
