import { describe, expect, it, vi } from "vitest";
import { ScriptedModel, type ScriptedScript } from "@troupe/models";
import type { EffectContext } from "@troupe/runtime";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { EffectCancelledError } from "@troupe/runtime";
import type { ModelCallDelta, ModelCallOutput } from "@troupe/protocol";
import { createModelCallHandler } from "./model-call-handler.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

const input = {
  sessionId: "s1",
  runId: "r1",
  transcriptLength: 3,
  modelCallIndex: 1,
  retry: 1,
  withoutTools: false,
};

function setup(
  script: ScriptedScript,
  options: {
    attempt?: number;
    streamAttempt?: () => Promise<number>;
    limits?: { modelIdleTimeoutMs?: number; modelCallTimeoutMs?: number };
  } = {},
) {
  const model = new ScriptedModel(script);
  const agents = new AgentRegistry([
    defineAgent({
      name: "assistant",
      instructions: "You are terse.",
      model,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  transcript.append(
    "s1",
    { role: "user", text: "first question", messageId: "m1" },
    { role: "assistant", text: "first answer", runId: "r0" },
    { role: "user", text: "second question", messageId: "m2" },
    { role: "user", text: "not yet in this call", messageId: "m3" },
  );
  const deltas: ModelCallDelta[] = [];
  const controller = new AbortController();
  const context: EffectContext = {
    signal: controller.signal,
    address: { kind: "run", id: "s1" },
    effectId: "r1.m1.a1",
    hostRun: () => Promise.resolve(options.attempt ?? 1),
  };
  const publish: { hook?: (delta: ModelCallDelta) => void } = {};
  const handler = createModelCallHandler({
    agents,
    transcript,
    env: {},
    ...(options.streamAttempt === undefined ? {} : { streamAttempt: options.streamAttempt }),
    publishDelta: (delta) => {
      deltas.push(delta);
      publish.hook?.(delta);
    },
  });
  return { model, handler, context, controller, deltas, publish };
}

describe("model.call handler", () => {
  it("publishes one delta per chunk when chunks come in separate event-loop turns", async () => {
    const { handler, context, deltas } = setup([{ text: "one two three", chunkDelayMs: 5 }]);
    const result = await handler(input, context);
    // Each delta holds back its last character for the next (issue #31: a
    // character split across chunks arrives whole); the call's end flushes it.
    // The last chunk and the end may come in one turn: "o three", or "o thre" and "e".
    expect(deltas.slice(0, 2).map(({ text, index }) => [text, index])).toEqual([
      ["on", 0],
      ["e tw", 1],
    ]);
    expect(
      deltas
        .slice(2)
        .map(({ text }) => text)
        .join(""),
    ).toBe("o three");
    expect(deltas.map(({ index }) => index)).toEqual(deltas.map((_, position) => position));
    expect(result).toMatchObject({ text: "one two three" });
  });

  it("prompts with the agent's instructions and the first transcriptLength entries in order", async () => {
    const { model, handler, context } = setup([{ text: "ok" }]);
    await handler(input, context);
    expect(model.lastCall?.prompt).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "first question" }] },
      { role: "assistant", content: [{ type: "text", text: "first answer" }] },
      { role: "user", content: [{ type: "text", text: "second question" }] },
    ]);
    expect(model.lastCall?.providerOptions).toEqual({
      troupe: { sessionId: "s1", runId: "r1", modelCallIndex: 1, retry: 1 },
    });
  });

  it("publishes text and reasoning deltas in order with the retry and stream attempt (text streamed at once joined into one delta, issue #12), and returns the answer", async () => {
    const { handler, context, deltas } = setup(
      [{ reasoning: "Think.", text: "Two words.", usage: { inputTokens: 20, outputTokens: 4 } }],
      { attempt: 2 },
    );
    const result = await handler({ ...input, retry: 3 }, context);
    expect(deltas.map(({ kind, text, index }) => [kind, text, index])).toEqual([
      ["reasoning", "Think.", 0],
      ["text", "Two words.", 1],
    ]);
    expect(deltas[0]).toEqual({
      sessionId: "s1",
      runId: "r1",
      modelCallIndex: 1,
      modelCallId: "r1.m1",
      streamAttempt: 2,
      retry: 3,
      effectId: "r1.m1.a1",
      kind: "reasoning",
      text: "Think.",
      index: 0,
    });
    expect(result).toEqual({
      text: "Two words.",
      reasoning: "Think.",
      finishReason: "stop",
      usage: { inputTokens: 20, outputTokens: 4 },
      toolCalls: [],
      // The run's first call pins the served definition.
      definition: { hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string },
    });
  });

  it("streams while the stream attempt is counted, and fails the call without deltas when it cannot be counted", async () => {
    let count!: (value: number) => void;
    const slow = setup([{ text: "late attempt" }], {
      streamAttempt: () => new Promise<number>((resolve) => (count = resolve)),
    });
    const pending = slow.handler(input, slow.context);
    await vi.waitFor(() => expect(slow.model.callCount).toBe(1));
    expect(slow.deltas).toEqual([]);
    count(7);
    await expect(pending).resolves.toMatchObject({ text: "late attempt" });
    expect(slow.deltas.map(({ text, streamAttempt }) => [text, streamAttempt])).toEqual([
      ["late attempt", 7],
    ]);

    const broken = setup([{ text: "never shown" }], {
      streamAttempt: () => Promise.reject(new Error("redis is down")),
    });
    await expect(broken.handler(input, broken.context)).rejects.toThrow("redis is down");
    expect(broken.deltas).toEqual([]);
  });

  it("takes the stream attempt from the streamAttempt option, counted once per handler run", async () => {
    let counted = 4;
    const { handler, context, deltas } = setup([{ text: "One." }, { text: "Two." }], {
      streamAttempt: () => Promise.resolve((counted += 1)),
    });
    await handler(input, context);
    await handler({ ...input, retry: 2 }, context);
    expect(deltas.map(({ streamAttempt, retry, text }) => [streamAttempt, retry, text])).toEqual([
      [5, 1, "One."],
      [6, 2, "Two."],
    ]);
  });

  it("collects tool calls the model returns, even of a tool the agent does not have", async () => {
    const { handler, context } = setup([
      { toolCalls: [{ toolCallId: "c1", toolName: "search", input: '{"q":"x"}' }] },
    ]);
    const result = (await handler(input, context)) as ModelCallOutput;
    expect(result.toolCalls).toEqual([
      {
        toolCallId: "c1",
        toolName: "search",
        input: '{"q":"x"}',
        effectClass: "unclassified",
        // Nothing to approve: tool.execute answers "Unknown tool" without running anything.
        decision: "allow",
      },
    ]);
    expect(result.finishReason).toBe("tool-calls");
  });

  it("uses input.model over the agent's model", async () => {
    const { model, handler, context } = setup([{ text: "agent model" }]);
    const result = (await handler(
      { ...input, model: "scripted:demo" },
      context,
    )) as ModelCallOutput;
    expect(result.text).toBe("You said: second question");
    expect(model.callCount).toBe(0);
  });

  it("returns the partial text when cancelled mid-stream with EffectCancelledError", async () => {
    const { handler, context, controller, deltas, publish } = setup([
      { text: "one two three four five", chunkDelayMs: 20 },
    ]);
    publish.hook = (delta) => {
      if (delta.index === 1) controller.abort(new EffectCancelledError("r1.m1.a1"));
    };
    const result = await handler(input, context);
    expect(result).toEqual({
      text: "one two",
      finishReason: "cancelled",
      usage: { inputTokens: 0, outputTokens: 0 },
      toolCalls: [],
      cancelled: true,
    });
    // "on", "e tw", then the held "o" when the call ends.
    expect(deltas.map((delta) => delta.text).join("")).toBe("one two");
    expect(deltas).toHaveLength(3);
  });

  it("returns an empty cancelled result when cancelled before the model streams", async () => {
    const { model, handler, context, controller } = setup([{ text: "never" }]);
    controller.abort(new EffectCancelledError("r1.m1.a1"));
    expect(await handler(input, context)).toMatchObject({ text: "", cancelled: true });
    expect(model.callCount).toBe(0);
  });

  it("rethrows any other abort reason (the host gave the effect up)", async () => {
    const { handler, context, controller, publish } = setup([
      { text: "one two three", chunkDelayMs: 20 },
    ]);
    const reason = new Error("shard handed over");
    publish.hook = () => controller.abort(reason);
    await expect(handler(input, context)).rejects.toBe(reason);
  });

  it("throws a non-retryable model_error for a non-retryable provider error", async () => {
    const { handler, context } = setup([
      { error: { message: "invalid model", retryable: false, statusCode: 404 } },
    ]);
    await expect(handler(input, context)).rejects.toMatchObject({
      code: "model_error",
      retryable: false,
      details: { statusCode: 404, provider: "troupe.scripted" },
      message: expect.stringContaining("HTTP 404") as unknown,
    });
  });

  it("throws a retryable model_error for a retryable provider error, even mid-stream", async () => {
    const { model, handler, context } = setup([
      { text: "half an", error: { message: "connection reset", retryable: true } },
    ]);
    await expect(handler(input, context)).rejects.toMatchObject({
      code: "model_error",
      retryable: true,
    });
    expect(model.callCount).toBe(1); // no AI SDK retries: the run machine retries durably
  });

  it("ends a call with no output for the idle timeout with a retryable model_timeout (issue #11)", async () => {
    const { handler, context, deltas } = setup([{ text: "one two three", chunkDelayMs: 2_000 }], {
      limits: { modelIdleTimeoutMs: 100 },
    });
    await expect(handler(input, context)).rejects.toMatchObject({
      name: "ModelTimeoutError",
      code: "model_timeout",
      retryable: true,
      message: "model script of troupe.scripted sent no output for 100 ms (idle timeout)",
      details: { timeout: "idle", timeoutMs: 100, provider: "troupe.scripted", modelId: "script" },
    });
    expect(deltas.map((delta) => delta.text)).toEqual(["on", "e"]);
  });

  it("ends a call that outlasts the call timeout with a retryable model_timeout, though output keeps coming", async () => {
    const { handler, context } = setup(
      [{ text: "a b c d e f g h i j k l m n o p q r s t u v w x y z", chunkDelayMs: 40 }],
      { limits: { modelIdleTimeoutMs: 5_000, modelCallTimeoutMs: 200 } },
    );
    await expect(handler(input, context)).rejects.toMatchObject({
      code: "model_timeout",
      retryable: true,
      details: { timeout: "call", timeoutMs: 200 },
    });
  });

  it("a cancellation during a bounded call is still a cancellation, not a timeout", async () => {
    const { handler, context, controller, publish } = setup(
      [{ text: "one two three", chunkDelayMs: 20 }],
      { limits: { modelIdleTimeoutMs: 5_000, modelCallTimeoutMs: 10_000 } },
    );
    publish.hook = () => controller.abort(new EffectCancelledError("r1.m1.a1"));
    expect(await handler(input, context)).toMatchObject({ text: "one", cancelled: true });
  });

  it("fails retryable when the transcript is shorter than transcriptLength", async () => {
    const { handler, context } = setup([{ text: "never" }]);
    await expect(handler({ ...input, transcriptLength: 9 }, context)).rejects.toMatchObject({
      code: "effect_failed",
      retryable: true,
    });
  });

  it("fails non-retryable for an unknown agent, a bad model spec or a malformed input", async () => {
    const { handler, context } = setup([]);
    const cases: [unknown, string][] = [
      [{ ...input, agent: "planner" }, "unknown_agent"],
      [{ ...input, model: "openai:gpt-4o" }, "model_not_configured"],
      [{ runId: "r1" }, "internal"],
    ];
    for (const [badInput, code] of cases) {
      await expect(handler(badInput, context)).rejects.toMatchObject({ code, retryable: false });
    }
  });
});
