import { describe, expect, it } from "vitest";
import { traceCarrierFromHeaders } from "./trace-carrier.js";

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

describe("traceCarrierFromHeaders", () => {
  it("reads traceparent and tracestate", () => {
    const headers = new Map([
      ["traceparent", TRACEPARENT],
      ["tracestate", "vendor=value"],
    ]);
    expect(traceCarrierFromHeaders((name) => headers.get(name))).toEqual({
      traceparent: TRACEPARENT,
      tracestate: "vendor=value",
    });
  });

  it("leaves tracestate out when it is absent or empty", () => {
    const headers = new Map([
      ["traceparent", TRACEPARENT],
      ["tracestate", ""],
    ]);
    expect(traceCarrierFromHeaders((name) => headers.get(name))).toEqual({
      traceparent: TRACEPARENT,
    });
  });

  it("ignores a missing or malformed traceparent", () => {
    expect(traceCarrierFromHeaders(() => undefined)).toBeUndefined();
    expect(traceCarrierFromHeaders(() => "")).toBeUndefined();
    expect(traceCarrierFromHeaders(() => "00-not-a-trace-01")).toBeUndefined();
    expect(traceCarrierFromHeaders(() => TRACEPARENT.toUpperCase())).toBeUndefined();
  });
});
