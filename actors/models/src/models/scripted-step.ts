import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { z } from "zod";

/**
 * A tool call the scripted model asks for. `input` is the tool's arguments, as a
 * JSON string or as an object (serialised with `JSON.stringify`).
 *
 * Shape: `{ toolCallId: string, toolName: string, input: string | object }`.
 */
export const scriptedToolCallSchema = z.object({
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  input: z.union([z.string(), z.record(z.string(), z.unknown())]),
});
/** See {@link scriptedToolCallSchema}. */
export type ScriptedToolCall = z.infer<typeof scriptedToolCallSchema>;

/**
 * A provider failure to simulate. The call fails with an `APICallError` whose
 * `isRetryable` is `retryable`, so the AI SDK and Troupe classify it as they
 * would a real HTTP error. `statusCode` defaults to 503 (retryable) or 400 (not).
 *
 * Shape: `{ message: string, retryable: boolean, statusCode?: number }`.
 */
export const scriptedErrorSchema = z.object({
  message: z.string().min(1),
  retryable: z.boolean(),
  statusCode: z.number().int().min(100).max(599).optional(),
});
/** See {@link scriptedErrorSchema}. */
export type ScriptedError = z.infer<typeof scriptedErrorSchema>;

/**
 * One answer of the scripted model (one model call).
 *
 * - `text` is streamed word by word (each chunk is a word with the whitespace
 *   before it), `reasoning` likewise, before the text.
 * - `toolCalls` follow the text; the finish reason is then `tool-calls`.
 * - `usage` in tokens; by default `inputTokens` = ⌈prompt characters / 4⌉ and
 *   `outputTokens` = ⌈output characters / 4⌉ (see {@link estimateTokens}).
 * - `chunkDelayMs` waits between two chunks (default 0 ms); the wait ends early,
 *   failing the stream with the signal's reason, when the call is aborted.
 * - `error` without `text` and `reasoning` fails the call before anything
 *   streams (like an HTTP error status); with them, the chunks stream first and
 *   the stream then ends with the error (like a connection lost mid-answer).
 * - `finishReason` overrides the computed one (`stop`, or `tool-calls`).
 * - `responseModelId` is the model the "provider" says answered (a
 *   `response-metadata` part), as a provider does for a dated snapshot of the
 *   requested model or a router's pick; default: none is reported.
 *
 * Shape: `{ text?, reasoning?, toolCalls?, usage?: { inputTokens, outputTokens }, chunkDelayMs?, error?, finishReason?, responseModelId? }`.
 */
export const scriptedStepSchema = z.object({
  text: z.string().optional(),
  reasoning: z.string().optional(),
  toolCalls: z.array(scriptedToolCallSchema).optional(),
  usage: z
    .object({
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
    })
    .optional(),
  chunkDelayMs: z.number().int().nonnegative().optional(),
  error: scriptedErrorSchema.optional(),
  finishReason: z.enum(["stop", "length", "content-filter", "tool-calls", "other"]).optional(),
  responseModelId: z.string().min(1).optional(),
});
/** See {@link scriptedStepSchema}. */
export type ScriptedStep = z.infer<typeof scriptedStepSchema>;

/** What a script function learns about the call it answers. */
export interface ScriptedRequest {
  /** The prompt as the AI SDK hands it to providers (system, user, assistant, tool messages). */
  readonly messages: LanguageModelV4Prompt;
  /** 0-based index of the call on this model instance (not stable across processes). */
  readonly callIndex: number;
  /** Names of the tools offered to the model in this call (empty when none). */
  readonly toolNames: readonly string[];
  /**
   * `providerOptions.troupe` of the call, if the caller set it (the model-call
   * handler sets `{ sessionId, runId, modelCallIndex, retry }`, `retry`
   * being the run's try of the model call, 1-based).
   */
  readonly troupe: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A script: steps answered in call order (call `i` gets `steps[i]`; a call past
 * the end fails), or a function of the request. Prefer a function keyed on the
 * conversation when calls may run in another process (after a host restart the
 * call index starts again at 0).
 */
export type ScriptedScript =
  readonly ScriptedStep[] | ((request: ScriptedRequest) => ScriptedStep | Promise<ScriptedStep>);

/**
 * Deterministic token estimate used when a step gives no `usage`: one token per
 * started group of 4 characters (UTF-16 code units).
 *
 * @param text - any text.
 * @returns ⌈text.length / 4⌉, 0 for the empty string.
 * @example estimateTokens("hello world") // 3
 */
export function estimateTokens(text: string): number {
  return estimateTokensOfLength(text.length);
}

/**
 * {@link estimateTokens} of a text of `length` UTF-16 code units.
 *
 * @param length - the text's length.
 * @returns tokens, ≥ 0.
 */
export function estimateTokensOfLength(length: number): number {
  return Math.ceil(length / 4);
}

/**
 * Splits text into stream chunks: each word with the whitespace before it, so
 * the chunks concatenate back to the text exactly.
 *
 * @param text - the text to stream.
 * @returns the chunks; none for the empty string.
 * @example splitIntoChunks("Hello, world!\n") // ["Hello,", " world!", "\n"]
 */
export function splitIntoChunks(text: string): string[] {
  const chunks: string[] = [...(text.match(/\s*\S+/g) ?? [])];
  const rest = text.slice(chunks.join("").length);
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}
