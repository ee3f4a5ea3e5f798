import { APICallError } from "@ai-sdk/provider";
import { generateText, streamText } from "ai";
import { describe, expect, it, vi } from "vitest";
import { ScriptedModel } from "./scripted-model.js";
import { type ScriptedRequest, estimateTokens, splitIntoChunks } from "./scripted-step.js";

/** Streams one call through the AI SDK and collects what matters. */
async function stream(model: ScriptedModel, options: { signal?: AbortSignal } = {}) {
  const result = streamText({
    model,
    instructions: "Be brief.",
    messages: [{ role: "user", content: "What is a troupe?" }],
    maxRetries: 0,
    onError: () => {},
    ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
  });
  const deltas: string[] = [];
  const reasoning: string[] = [];
  const errors: unknown[] = [];
  let usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } = {};
  let finishReason: string | undefined;
  let aborted = false;
  for await (const part of result.stream) {
    if (part.type === "text-delta") deltas.push(part.text);
    if (part.type === "reasoning-delta") reasoning.push(part.text);
    if (part.type === "error") errors.push(part.error);
    if (part.type === "abort") aborted = true;
    if (part.type === "finish") {
      usage = part.totalUsage;
      finishReason = part.finishReason;
    }
  }
  return { deltas, reasoning, errors, usage, finishReason, aborted };
}

describe("ScriptedModel", () => {
  it("streams text word by word, reasoning first, with the scripted usage", async () => {
    const model = new ScriptedModel([
      {
        reasoning: "Short answer.",
        text: "A troupe is a company of actors.",
        usage: { inputTokens: 11, outputTokens: 7 },
      },
    ]);
    const streamed = await stream(model);
    expect(streamed.reasoning).toEqual(["Short", " answer."]);
    expect(streamed.deltas).toEqual(["A", " troupe", " is", " a", " company", " of", " actors."]);
    expect(streamed.usage).toMatchObject({ inputTokens: 11, outputTokens: 7 });
    expect(streamed.finishReason).toBe("stop");
  });

  it("computes usage from lengths when the step gives none (⌈characters / 4⌉)", async () => {
    const model = new ScriptedModel([{ text: "twelve chars" }]);
    const streamed = await stream(model);
    // prompt text: system "Be brief." + "\n" + user "What is a troupe?" = 27 characters
    expect(streamed.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
  });

  it("counts every message's text and a newline between messages, without the prompt's other parts", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const result = streamText({
      model,
      instructions: "Be brief.",
      messages: [
        { role: "user", content: "What is a troupe?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "It is." },
            { type: "tool-call", toolCallId: "c1", toolName: "look", input: { q: "x" } },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "look",
              output: { type: "text", value: "found" },
            },
          ],
        },
        { role: "user", content: "More?" },
      ],
      maxRetries: 0,
    });
    await result.consumeStream();
    // "Be brief." 9 + "\n" + 17 + "\n" + "It is." 6 + "\n" + (tool message: no text part) 0
    // + "\n" + "More?" 5 = 41 characters: 11 tokens.
    expect((await result.totalUsage).inputTokens).toBe(11);
  });

  it("answers steps in call order and fails a call past the end of the script", async () => {
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    expect((await stream(model)).deltas).toEqual(["one"]);
    expect((await stream(model)).deltas).toEqual(["two"]);
    const third = await stream(model);
    expect(third.errors).toHaveLength(1);
    expect(String(third.errors[0])).toContain("call 3 has none");
    expect(model.callCount).toBe(3);
  });

  it("gives a script function the prompt, the call index and providerOptions.troupe", async () => {
    const requests: ScriptedRequest[] = [];
    const model = new ScriptedModel((request) => {
      requests.push(request);
      return { text: `call ${request.callIndex}` };
    });
    await stream(model);
    const result = streamText({
      model,
      prompt: "again",
      maxRetries: 0,
      providerOptions: { troupe: { retry: 2 } },
    });
    expect(await result.text).toBe("call 1");
    expect(requests[0]?.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "What is a troupe?" }] },
    ]);
    expect(requests.map((request) => request.callIndex)).toEqual([0, 1]);
    expect(requests[1]?.troupe).toEqual({ retry: 2 });
    expect(requests[1]?.toolNames).toEqual([]);
  });

  it("fails a call with a retryable APICallError the AI SDK passes through unchanged", async () => {
    const model = new ScriptedModel([{ error: { message: "overloaded", retryable: true } }]);
    const { errors, deltas } = await stream(model);
    expect(deltas).toEqual([]);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ isRetryable: true, statusCode: 503, message: "overloaded" });
  });

  it("fails a call with a non-retryable APICallError (status 400 by default)", async () => {
    const model = new ScriptedModel([{ error: { message: "bad request", retryable: false } }]);
    const { errors } = await stream(model);
    expect(errors[0]).toMatchObject({ isRetryable: false, statusCode: 400 });
  });

  it("streams the text first and then the error when a step has both", async () => {
    const model = new ScriptedModel([
      { text: "partial answer", error: { message: "connection lost", retryable: true } },
    ]);
    const streamed = await stream(model);
    expect(streamed.deltas).toEqual(["partial", " answer"]);
    expect(streamed.errors).toHaveLength(1);
    expect(streamed.finishReason).toBe("error");
  });

  it("waits chunkDelayMs between chunks and stops at once when the call is aborted", async () => {
    // Fake timers: a stream that waited out the remaining chunk delays after the
    // abort would never settle here (no timer is advanced past 60 ms).
    vi.useFakeTimers();
    try {
      const model = new ScriptedModel([{ text: "one two three four five", chunkDelayMs: 40 }]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("stop")), 60);
      const pending = stream(model, { signal: controller.signal });
      await vi.advanceTimersByTimeAsync(60);
      const streamed = await pending;
      expect(streamed.aborted).toBe(true);
      expect(streamed.deltas).toEqual(["one", " two"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("returns text, reasoning and tool calls from doGenerate", async () => {
    const model = new ScriptedModel([
      {
        text: "Looking it up.",
        toolCalls: [{ toolCallId: "call-1", toolName: "search", input: { query: "troupe" } }],
      },
    ]);
    const result = await model.doGenerate({ prompt: [{ role: "user", content: [] }] });
    expect(result.content).toEqual([
      { type: "text", text: "Looking it up." },
      { type: "tool-call", toolCallId: "call-1", toolName: "search", input: '{"query":"troupe"}' },
    ]);
    expect(result.finishReason).toEqual({ unified: "tool-calls", raw: "tool-calls" });
  });

  it("works with generateText", async () => {
    const model = new ScriptedModel([{ text: "Hello there." }]);
    const result = await generateText({ model, prompt: "hi", maxRetries: 0 });
    expect(result.text).toBe("Hello there.");
  });
});

describe("splitIntoChunks and estimateTokens", () => {
  it("splits into words with their leading whitespace, concatenating back exactly", () => {
    expect(splitIntoChunks("  Hello,\n world! ")).toEqual(["  Hello,", "\n world!", " "]);
    expect(splitIntoChunks("")).toEqual([]);
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("hello world")).toBe(3);
  });
});
