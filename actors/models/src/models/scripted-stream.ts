import type {
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { type ScriptedStep, splitIntoChunks } from "./scripted-step.js";

/** A stream part and how long to wait before it is delivered, in ms. */
interface TimedPart {
  readonly part: LanguageModelV4StreamPart;
  readonly delayMs: number;
}

/**
 * Builds the provider usage object of the language model spec v4 from plain
 * token counts (no cache or reasoning breakdown).
 *
 * @param inputTokens - prompt tokens.
 * @param outputTokens - generated tokens.
 * @see https://ai-sdk.dev/providers/community-providers/custom-providers
 */
export function providerUsage(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

/**
 * The unified finish reason of a step: its `finishReason`, else `tool-calls`
 * when it asks for tools, else `stop`.
 */
export function stepFinishReason(step: ScriptedStep): LanguageModelV4FinishReason {
  const unified = step.finishReason ?? ((step.toolCalls ?? []).length > 0 ? "tool-calls" : "stop");
  return { unified, raw: unified };
}

/**
 * The stream parts of one scripted step, in order: `stream-start`,
 * `response-metadata` (when the step names a `responseModelId`), reasoning
 * block, text block, tool calls, then `error` (when the step has one) and
 * `finish`. Text and reasoning deltas after the first wait `chunkDelayMs`.
 *
 * @param step - the step to play.
 * @param usage - the usage reported by the `finish` part.
 * @param streamError - the error the stream ends with, if any.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/stream-text — stream part types
 */
export function scriptedStreamParts(
  step: ScriptedStep,
  usage: LanguageModelV4Usage,
  streamError: unknown,
): TimedPart[] {
  const delayMs = step.chunkDelayMs ?? 0;
  const parts: TimedPart[] = [{ part: { type: "stream-start", warnings: [] }, delayMs: 0 }];
  if (step.responseModelId !== undefined) {
    parts.push({ part: { type: "response-metadata", modelId: step.responseModelId }, delayMs: 0 });
  }
  let deltas = 0;
  const block = (kind: "reasoning" | "text", id: string, text: string | undefined) => {
    if (text === undefined || text.length === 0) return;
    parts.push({ part: { type: `${kind}-start`, id }, delayMs: 0 });
    for (const chunk of splitIntoChunks(text)) {
      parts.push({
        part: { type: `${kind}-delta`, id, delta: chunk },
        delayMs: deltas++ === 0 ? 0 : delayMs,
      });
    }
    parts.push({ part: { type: `${kind}-end`, id }, delayMs: 0 });
  };
  block("reasoning", "reasoning-0", step.reasoning);
  block("text", "text-0", step.text);
  for (const call of step.toolCalls ?? []) {
    const input = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
    parts.push({
      part: { type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input },
      delayMs,
    });
  }
  if (streamError !== undefined) {
    parts.push({ part: { type: "error", error: streamError }, delayMs: 0 });
  }
  const finishReason: LanguageModelV4FinishReason =
    streamError === undefined ? stepFinishReason(step) : { unified: "error", raw: "error" };
  parts.push({ part: { type: "finish", usage, finishReason }, delayMs: 0 });
  return parts;
}

/**
 * Plays timed parts as a `ReadableStream`. When `signal` aborts, the stream
 * fails with `signal.reason`, as a `fetch` body does.
 *
 * @param parts - the parts and their delays (ms).
 * @param signal - the call's abort signal, if any.
 */
export function playParts(
  parts: readonly TimedPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let next = 0;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      const timed = parts[next++];
      if (timed === undefined) {
        controller.close();
        return;
      }
      if (timed.delayMs > 0) await abortableDelay(timed.delayMs, signal);
      signal?.throwIfAborted();
      controller.enqueue(timed.part);
    },
  });
}

/**
 * Waits `delayMs`, or rejects with the signal's reason as soon as it aborts.
 *
 * @param delayMs - how long to wait, in ms.
 * @param signal - ends the wait early.
 * @throws the signal's `reason` when it aborts.
 */
export function abortableDelay(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
