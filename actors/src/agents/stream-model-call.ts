import type { Usage } from "@troupe/protocol";
import { type ModelMessage, streamText } from "ai";
import type { LanguageModelInstance } from "../models/resolve-model.js";
import type { ModelToolCall } from "./model-call-effect.js";

/** What {@link streamModelCall} needs for one call. */
export interface StreamModelCallOptions {
  readonly model: LanguageModelInstance;
  readonly instructions: string;
  readonly messages: ModelMessage[];
  /** Aborts the provider request; the stream then ends with an `abort` part. */
  readonly signal: AbortSignal;
  /** Passed to the provider as `providerOptions` (e.g. `{ troupe: { attempt } }` for the scripted model). */
  readonly providerOptions?: Record<string, Record<string, string | number | boolean>>;
  /** Called, and awaited, for every non-empty text or reasoning delta, in stream order. */
  readonly onDelta: (kind: "text" | "reasoning", text: string) => Promise<void>;
}

/**
 * Everything one streamed model call produced, however it ended.
 *
 * `finished` — the stream reached its `finish` part; `aborted` — it ended with
 * an `abort` part (or threw after the signal aborted); `error` — the first
 * error part or thrown error (`hasError` tells an `undefined` error apart).
 */
export interface StreamedModelCall {
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: ModelToolCall[];
  /** Tokens summed over the steps that finished; zeros when none did. */
  readonly usage: Usage;
  readonly finishReason: string | undefined;
  readonly finished: boolean;
  readonly aborted: boolean;
  readonly hasError: boolean;
  readonly error: unknown;
}

/**
 * Streams one model call with the AI SDK's `streamText` — no tools, one step,
 * **no AI SDK retries** (`maxRetries: 0`: the run machine retries durably) —
 * and gathers its text, reasoning, tool calls and usage. Never throws for
 * provider errors or aborts: `streamText` turns them into `error` / `abort`
 * parts, reported in the result.
 *
 * @param options - model, prompt, signal and delta callback.
 * @returns what streamed, see {@link StreamedModelCall}.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/stream-text
 * @see https://ai-sdk.dev/docs/ai-sdk-core/error-handling — errors become stream parts
 */
export async function streamModelCall(options: StreamModelCallOptions): Promise<StreamedModelCall> {
  let text = "";
  let reasoning = "";
  const toolCalls: ModelToolCall[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: string | undefined;
  let finished = false;
  let aborted = false;
  let hasError = false;
  let error: unknown;
  const fail = (value: unknown) => {
    if (hasError) return;
    hasError = true;
    error = value;
  };
  try {
    const result = streamText({
      model: options.model,
      instructions: options.instructions,
      messages: options.messages,
      abortSignal: options.signal,
      maxRetries: 0,
      ...(options.providerOptions === undefined
        ? {}
        : { providerOptions: options.providerOptions }),
      onError: () => {},
    });
    for await (const part of result.stream) {
      switch (part.type) {
        case "text-delta":
          if (part.text.length === 0) break;
          text += part.text;
          await options.onDelta("text", part.text);
          break;
        case "reasoning-delta":
          if (part.text.length === 0) break;
          reasoning += part.text;
          await options.onDelta("reasoning", part.text);
          break;
        case "tool-call":
          toolCalls.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          });
          break;
        case "finish-step":
          usage.inputTokens += part.usage.inputTokens ?? 0;
          usage.outputTokens += part.usage.outputTokens ?? 0;
          break;
        case "finish":
          finishReason = part.finishReason;
          finished = true;
          break;
        case "abort":
          aborted = true;
          break;
        case "error":
          fail(part.error);
          break;
        default:
          break;
      }
    }
  } catch (thrown) {
    if (options.signal.aborted) aborted = true;
    else fail(thrown);
  }
  return { text, reasoning, toolCalls, usage, finishReason, finished, aborted, hasError, error };
}
