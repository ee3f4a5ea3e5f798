import type { JetStreamClient } from "@nats-io/jetstream";
import { SpanKind, context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  ATTRIBUTES,
  SPAN_NAMES,
  TELEMETRY_SCOPE,
  type TraceCarrier,
  traceCarrierFromHeaders,
} from "@troupe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OutboxItem } from "@troupe/step";
import { OutboxPublisher, outboxHeaders } from "./outbox-publisher.js";
import { carrierOfSpan, contextOfCarrier } from "./trace-context.js";

// Issue #18: trace context in and out of NATS headers and actor records.

const carrier = {
  traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
  tracestate: "vendor=1",
};

function item(messageId: string, trace?: TraceCarrier): OutboxItem {
  return {
    subject: `troupe.session.s1.ev.${messageId}`,
    messageId,
    contentType: "application/msgpack",
    body: new Uint8Array([1]),
    ...(trace === undefined ? {} : { trace }),
  };
}

describe("without a registered SDK (tracing off)", () => {
  it("nothing is injected: a span has no carrier, and outbox headers have no traceparent", () => {
    const span = trace.getTracer(TELEMETRY_SCOPE).startSpan("x");
    expect(carrierOfSpan(span)).toBeUndefined();
    const headers = outboxHeaders(item("1"));
    expect(headers.get("traceparent")).toBe("");
    expect(headers.get("Content-Type")).toBe("application/msgpack");
  });
});

describe("with an in-memory tracer provider and the W3C propagator", () => {
  const exporter = new InMemorySpanExporter();
  beforeEach(() => {
    const contextManager = new AsyncLocalStorageContextManager();
    contextManager.enable();
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
  });
  afterEach(() => {
    exporter.reset();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it("a stored carrier continues its trace, and a child's carrier names the child span", () => {
    const parent = contextOfCarrier(carrier);
    const child = trace.getTracer(TELEMETRY_SCOPE).startSpan("child", {}, parent);
    const childCarrier = carrierOfSpan(child);
    expect(child.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(childCarrier).toEqual({
      traceparent: `00-0af7651916cd43dd8448eb211c80319c-${child.spanContext().spanId}-01`,
      tracestate: "vendor=1",
    });
    // and back from headers
    const headers = outboxHeaders(item("1", childCarrier));
    expect(traceCarrierFromHeaders((name) => headers.get(name) || undefined)).toEqual(childCarrier);
    child.end();
  });

  it("an outbox is published with each item's stored traceparent, in one PRODUCER span child of the first item's trace", async () => {
    const published: { subject: string; traceparent: string; tracestate: string }[] = [];
    const js = {
      publish: (
        subject: string,
        _body: Uint8Array,
        options: { headers: ReturnType<typeof outboxHeaders> },
      ) => {
        published.push({
          subject,
          traceparent: options.headers.get("traceparent"),
          tracestate: options.headers.get("tracestate"),
        });
        return Promise.resolve({ seq: published.length, duplicate: false, stream: "S" });
      },
    } as unknown as JetStreamClient;
    const other = { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" };
    await new OutboxPublisher(js).publish([item("1", carrier), item("2", other), item("3")]);
    expect(published).toEqual([
      {
        subject: "troupe.session.s1.ev.1",
        traceparent: carrier.traceparent,
        tracestate: "vendor=1",
      },
      { subject: "troupe.session.s1.ev.2", traceparent: other.traceparent, tracestate: "" },
      { subject: "troupe.session.s1.ev.3", traceparent: "", tracestate: "" },
    ]);
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span?.name).toBe(SPAN_NAMES.publishOutbox);
    expect(span?.kind).toBe(SpanKind.PRODUCER);
    expect(span?.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(span?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
    expect(span?.attributes[ATTRIBUTES.messagingBatchCount]).toBe(3);
  });
});
