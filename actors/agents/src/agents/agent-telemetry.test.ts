import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SpanKind, SpanStatusCode, context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { ATTRIBUTES, METRICS, SPAN_NAMES, type ToolExecuteOutput } from "@troupe/protocol";
import { EffectCancelledError, type EffectContext } from "@troupe/runtime";
import { ScriptedModel, type ScriptedScript } from "@troupe/models";
import {
  type ToolEffectClass,
  defineTool,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
} from "@troupe/tools/internal";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

// Issue #18: the agents' spans (`chat <model>`, `execute_tool <tool>`) and
// metrics (token usage, tool calls), read back from in-memory OpenTelemetry
// providers registered as the globals for each test.

let spans: InMemorySpanExporter;
let metricExporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;

beforeEach(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  );
  metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported only when the test flushes (the interval is far beyond a test).
  reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

afterEach(async () => {
  await reader.shutdown();
  trace.disable();
  metrics.disable();
  context.disable();
});

/** The data points of one metric after a flush of the reader. */
async function points(name: string): Promise<DataPoint<unknown>[]> {
  await reader.forceFlush();
  const exported = metricExporter.getMetrics().at(-1);
  const metric = exported?.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((candidate) => candidate.descriptor.name === name);
  return metric?.dataPoints ?? [];
}

/** The one finished span of this name. */
function spanNamed(name: string): ReadableSpan {
  const found = spans.getFinishedSpans().filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0]!;
}

/** Runs `work` inside an outer active span (the runtime's effect span stands there) and returns that span's id. */
async function underOuterSpan<T>(work: () => Promise<T>): Promise<{ result: T; outer: string }> {
  const outer = trace.getTracer("test").startSpan("effect outer");
  const result = await context.with(trace.setSpan(context.active(), outer), work);
  outer.end();
  return { result, outer: outer.spanContext().spanId };
}

const modelInput = {
  sessionId: "s1",
  runId: "r1",
  transcriptLength: 1,
  modelCallIndex: 1,
  retry: 1,
  withoutTools: false,
};

/** A model.call handler for one agent answering from `script` (model id `scripted-7`). */
function modelCall(script: ScriptedScript) {
  const model = new ScriptedModel(script, { modelId: "scripted-7" });
  const agents = new AgentRegistry([
    defineAgent({ name: "assistant", instructions: "Be terse.", model }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  transcript.append("s1", { role: "user", text: "hello", messageId: "m1" });
  const controller = new AbortController();
  const effect: EffectContext = {
    signal: controller.signal,
    address: { kind: "run", id: "s1" },
    effectId: "r1.m1.a1",
    hostRun: () => Promise.resolve(1),
  };
  const handler = createModelCallHandler({
    agents,
    transcript,
    env: {},
    publishDelta: () => undefined,
  });
  return { run: () => handler(modelInput, effect), controller };
}

describe("model call telemetry (issue #18)", () => {
  it("a scripted call yields a CLIENT `chat <model>` span under the active span, with its tokens and finish reason", async () => {
    const { run } = modelCall([{ text: "Hi there.", usage: { inputTokens: 31, outputTokens: 7 } }]);
    const { outer } = await underOuterSpan(run);
    const span = spanNamed(SPAN_NAMES.chat("scripted-7"));
    expect(span.name).toBe("chat scripted-7");
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(outer);
    expect(span.attributes).toEqual({
      [ATTRIBUTES.genAiOperation]: "chat",
      [ATTRIBUTES.genAiProvider]: "troupe",
      [ATTRIBUTES.genAiRequestModel]: "scripted-7",
      [ATTRIBUTES.genAiResponseModel]: "scripted-7",
      [ATTRIBUTES.genAiInputTokens]: 31,
      [ATTRIBUTES.genAiOutputTokens]: 7,
      [ATTRIBUTES.genAiFinishReasons]: ["stop"],
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("records the scripted token counts in the token usage histogram, input and output apart, by model", async () => {
    const { run } = modelCall([
      { text: "One.", usage: { inputTokens: 31, outputTokens: 7 } },
      { text: "Two.", usage: { inputTokens: 40, outputTokens: 3 } },
    ]);
    await run();
    await run();
    const usage = (await points(METRICS.tokenUsage.name)).map((point) => ({
      attributes: point.attributes,
      sum: (point.value as Histogram).sum,
      count: (point.value as Histogram).count,
    }));
    const base = {
      [ATTRIBUTES.genAiOperation]: "chat",
      [ATTRIBUTES.genAiRequestModel]: "scripted-7",
    };
    expect(usage).toEqual(
      expect.arrayContaining([
        { attributes: { ...base, [ATTRIBUTES.genAiTokenType]: "input" }, sum: 71, count: 2 },
        { attributes: { ...base, [ATTRIBUTES.genAiTokenType]: "output" }, sum: 10, count: 2 },
      ]),
    );
    expect(usage).toHaveLength(2);
  });

  it("a call whose tool calls end the answer reports the `tool-calls` finish reason", async () => {
    const { run } = modelCall([
      { toolCalls: [{ toolCallId: "c1", toolName: "lookup", input: { q: "x" } }] },
    ]);
    await run();
    expect(spanNamed("chat scripted-7").attributes[ATTRIBUTES.genAiFinishReasons]).toEqual([
      "tool-calls",
    ]);
  });

  it("a provider error ends the span with ERROR status and error.type, and records no usage", async () => {
    const { run } = modelCall([{ error: { message: "bad request", retryable: false } }]);
    await expect(underOuterSpan(run)).rejects.toMatchObject({ code: "model_error" });
    const span = spanNamed("chat scripted-7");
    expect(span.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(span.status.message).toContain("failed (HTTP 400)");
    expect(span.attributes[ATTRIBUTES.errorType]).toBe("model_error");
    expect(span.attributes[ATTRIBUTES.genAiInputTokens]).toBeUndefined();
    expect(await points(METRICS.tokenUsage.name)).toEqual([]);
  });

  it("a call cancelled mid-stream ends the span with error.type `cancelled`", async () => {
    const { run, controller } = modelCall([
      { text: "one two three four five six", chunkDelayMs: 30 },
    ]);
    const pending = run();
    setTimeout(() => controller.abort(new EffectCancelledError("r1.m1.a1")), 40);
    expect(await pending).toMatchObject({ cancelled: true });
    const span = spanNamed("chat scripted-7");
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes[ATTRIBUTES.errorType]).toBe("cancelled");
    expect(span.attributes[ATTRIBUTES.genAiFinishReasons]).toEqual(["cancelled"]);
  });
});

const KEY = "s1/r1/c7";
const toolInput = {
  sessionId: "s1",
  runId: "r1",
  toolCallId: "c7",
  toolName: "charge",
  input: "{}",
};

/** A tool.execute handler for one tool `charge` of `effectClass` behaving per attempt as `behaviour` says. */
function toolCall(effectClass: ToolEffectClass, behaviour: (attempt: number) => unknown) {
  const charge = defineTool({
    name: "charge",
    description: "Charges.",
    inputSchema: z.object({}),
    effectClass,
    execute: (_, { attempt }) => {
      const value = behaviour(attempt);
      return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
    },
  });
  const agents = new AgentRegistry([
    defineAgent({ name: "assistant", instructions: "x", tools: [charge] }),
  ]);
  const records = new InMemoryIdempotencyRecordStore();
  const handler = createToolExecuteHandler({
    toolsOf: (name) => agents.get(name).tools,
    idempotencyRecords: records,
    results: new InMemoryToolResultStore(),
    retryBackoffMs: 1,
  });
  const effect: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "tool", id: "t1" },
    effectId: "tool.execute",
    hostRun: () => Promise.resolve(1),
  };
  return {
    records,
    run: (overrides: Record<string, unknown> = {}) =>
      handler({ ...toolInput, ...overrides }, effect) as Promise<ToolExecuteOutput>,
  };
}

/** `troupe.tool.calls` as `effect_class/outcome → count`. */
async function toolCallCounts(): Promise<Record<string, number>> {
  return Object.fromEntries(
    (await points(METRICS.toolCalls.name)).map((point) => [
      `${String(point.attributes[ATTRIBUTES.toolEffectClass])}/${String(point.attributes[ATTRIBUTES.toolOutcome])}`,
      point.value as number,
    ]),
  );
}

describe("tool call telemetry (issue #18)", () => {
  it("a succeeded call yields an `execute_tool <tool>` span under the active span with effect class, outcome and attempt", async () => {
    const { run } = toolCall("idempotent_write", () => ({ ok: true }));
    const { result, outer } = await underOuterSpan(() => run());
    expect(result.status).toBe("succeeded");
    const span = spanNamed(SPAN_NAMES.executeTool("charge"));
    expect(span.name).toBe("execute_tool charge");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).toBe(outer);
    expect(span.attributes).toEqual({
      [ATTRIBUTES.genAiOperation]: "execute_tool",
      [ATTRIBUTES.genAiToolName]: "charge",
      [ATTRIBUTES.genAiToolCallId]: "c7",
      [ATTRIBUTES.toolEffectClass]: "idempotent_write",
      [ATTRIBUTES.toolOutcome]: "succeeded",
      [ATTRIBUTES.toolAttempt]: 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(await toolCallCounts()).toEqual({ "idempotent_write/succeeded": 1 });
  });

  it("a read that succeeds on its third execution attempt carries attempt 3 and an event per failed attempt", async () => {
    const { run } = toolCall("read", (attempt) => (attempt < 3 ? new Error("flaky") : "fine"));
    expect((await run()).status).toBe("succeeded");
    const span = spanNamed("execute_tool charge");
    expect(span.attributes[ATTRIBUTES.toolAttempt]).toBe(3);
    expect(
      span.events.map((event) => [event.name, event.attributes?.[ATTRIBUTES.toolAttempt]]),
    ).toEqual([
      ["execution attempt failed", 1],
      ["execution attempt failed", 2],
    ]);
  });

  it("a write whose earlier execution attempt left no result is counted as outcome_unknown, its span in ERROR", async () => {
    const { run, records } = toolCall("non_idempotent_write", () => ({ ok: true }));
    // An earlier host began the call and stopped before recording a result.
    await records.begin(KEY, "non_idempotent_write");
    expect((await run()).status).toBe("outcome_unknown");
    const span = spanNamed("execute_tool charge");
    expect(span.attributes).toMatchObject({
      [ATTRIBUTES.toolEffectClass]: "non_idempotent_write",
      [ATTRIBUTES.toolOutcome]: "outcome_unknown",
      [ATTRIBUTES.toolAttempt]: 1,
      [ATTRIBUTES.errorType]: "outcome_unknown",
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(await toolCallCounts()).toEqual({ "non_idempotent_write/outcome_unknown": 1 });
  });

  it("counts outcomes apart by effect class: failed, invalid arguments and an unknown tool (no class)", async () => {
    const { run } = toolCall("unclassified", () => new Error("boom"));
    expect((await run()).status).toBe("failed");
    expect((await run({ toolCallId: "c8", input: "not json" })).status).toBe("invalid_arguments");
    expect((await run({ toolCallId: "c9", toolName: "nope" })).status).toBe("invalid_arguments");
    expect(await toolCallCounts()).toEqual({
      "unclassified/failed": 1,
      "unclassified/invalid_arguments": 1,
      "undefined/invalid_arguments": 1,
    });
    const failed = spans
      .getFinishedSpans()
      .find((span) => span.attributes[ATTRIBUTES.genAiToolCallId] === "c7");
    expect(failed?.attributes).toMatchObject({
      [ATTRIBUTES.toolOutcome]: "failed",
      [ATTRIBUTES.toolAttempt]: 1,
      [ATTRIBUTES.errorType]: "failed",
    });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
  });
});
