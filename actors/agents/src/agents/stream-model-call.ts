import type { Usage } from "@troupe/protocol";
import { type ModelMessage, type ToolSet, isStepCount, streamText } from "ai";
import type { LanguageModelInstance } from "../models/resolve-model.js";
import type { StreamedToolCall } from "./model-tools.js";

/** What {@link streamModelCall} needs for one call. */
export interface StreamModelCallOptions {
  readonly model: LanguageModelInstance;
  readonly instructions: string;
  readonly messages: ModelMessage[];
  /** Tools offered to the model, without `execute` (see `modelToolSettings`); none when absent. */
  readonly tools?: ToolSet;
  /** `"none"`: tools are sent (the prompt holds tool parts) but the model may not call them. */
  readonly toolChoice?: "none";
  /** Aborts the provider request; the stream then ends with an `abort` part. */
  readonly signal: AbortSignal;
  /**
   * Bounds of the call (issue #11), both in ms: `idleMs` — longest wait for the
   * first and for each next piece of model output (a non-empty text, reasoning
   * or tool-argument delta, or a tool call; SSE keep-alive comments and other
   * parts do not count); `callMs` — longest time for the whole call. Either
   * aborts the HTTP request and ends the result with `timedOut`. None when absent.
   */
  readonly timeouts?: { readonly idleMs: number; readonly callMs: number };
  /** Passed to the provider as `providerOptions` (e.g. `{ troupe: { retry } }` for the scripted model). */
  readonly providerOptions?: Record<string, Record<string, string | number | boolean>>;
  /** Called, and awaited, for every non-empty text or reasoning delta, in stream order. */
  readonly onDelta: (kind: "text" | "reasoning", text: string) => Promise<void>;
}

/**
 * Everything one streamed model call produced, however it ended.
 *
 * `finished` — the stream reached its `finish` part; `aborted` — it ended with
 * an `abort` part (or threw after the signal aborted); `timedOut` — which of
 * `options.timeouts` ended it (then `aborted` is true too, the caller's signal
 * is not aborted); `error` — the first error part or thrown error (`hasError`
 * tells an `undefined` error apart).
 */
export interface StreamedModelCall {
  readonly text: string;
  readonly reasoning: string;
  /** Tool calls in stream order, arguments as raw JSON text. */
  readonly toolCalls: StreamedToolCall[];
  /** Tokens summed over the steps that finished; zeros when none did. */
  readonly usage: Usage;
  readonly finishReason: string | undefined;
  readonly finished: boolean;
  readonly aborted: boolean;
  readonly timedOut: "idle" | "call" | undefined;
  readonly hasError: boolean;
  readonly error: unknown;
}

/**
 * Streams one model call with the AI SDK's `streamText` — one step
 * (`stopWhen: isStepCount(1)`; tools have no `execute`, so the step ends with
 * the calls), **no AI SDK retries** (`maxRetries: 0`: the run machine retries
 * durably) — and gathers its text, reasoning, tool calls and usage. Tool calls
 * keep the model's arguments text: a call the SDK could not parse (invalid
 * JSON, unknown tool) carries the raw text, a parsed one is re-serialised with
 * `JSON.stringify`. Never throws for provider errors or aborts: `streamText`
 * turns them into `error` / `abort` parts, reported in the result.
 *
 * Timeouts: the idle bound is the AI SDK's own (`timeout: { firstChunkMs,
 * chunkMs }`, which aborts the request when no output chunk comes in time);
 * the call bound is a timer of ours (cleared when the call ends) whose abort
 * signal is joined with the caller's, so the result can tell the two (and a
 * cancellation) apart.
 *
 * @param options - model, prompt, signal and delta callback.
 * @returns what streamed, see {@link StreamedModelCall}.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/stream-text
 * @see https://ai-sdk.dev/docs/ai-sdk-core/error-handling — errors become stream parts
 */
export async function streamModelCall(options: StreamModelCallOptions): Promise<StreamedModelCall> {
  let text = "";
  let reasoning = "";
  const toolCalls: StreamedToolCall[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: string | undefined;
  let finished = false;
  let aborted = false;
  let hasError = false;
  // Our own timer rather than AbortSignal.timeout: it is cleared when the call
  // ends, so a finished call holds no 10-minute timer and its request's listeners.
  const callTimeout = options.timeouts === undefined ? undefined : new AbortController();
  const callTimer =
    options.timeouts === undefined
      ? undefined
      : setTimeout(() => {
          callTimeout?.abort(
            new DOMException(
              `call timeout of ${options.timeouts?.callMs} ms exceeded`,
              "TimeoutError",
            ),
          );
        }, options.timeouts.callMs);
  const signal =
    callTimeout === undefined
      ? options.signal
      : AbortSignal.any([options.signal, callTimeout.signal]);
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
      abortSignal: signal,
      ...(options.timeouts === undefined
        ? {}
        : {
            timeout: {
              firstChunkMs: options.timeouts.idleMs,
              chunkMs: options.timeouts.idleMs,
            },
          }),
      maxRetries: 0,
      stopWhen: isStepCount(1),
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
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
            input: rawArguments(part.input, part.invalid === true),
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
    if (signal.aborted || isTimeout(thrown)) aborted = true;
    else fail(thrown);
  } finally {
    clearTimeout(callTimer);
  }
  // Not the caller's abort, so one of the bounds: the call's, else the SDK's idle one.
  const timedOut =
    options.timeouts === undefined || options.signal.aborted || (!aborted && !isTimeout(error))
      ? undefined
      : callTimeout?.signal.aborted === true
        ? "call"
        : "idle";
  if (timedOut !== undefined) aborted = true;
  return {
    text,
    reasoning,
    toolCalls,
    usage,
    finishReason,
    finished,
    aborted,
    timedOut,
    hasError: timedOut === undefined && hasError,
    error: timedOut === undefined ? error : undefined,
  };
}

/** An abort the AI SDK's timeouts cause (`TimeoutError` / `AbortError` `DOMException`). */
function isTimeout(value: unknown): boolean {
  return value instanceof Error && (value.name === "TimeoutError" || value.name === "AbortError");
}

/** The arguments text of a streamed call: the raw text of an invalid call, else the parsed input as JSON. */
function rawArguments(input: unknown, invalid: boolean): string {
  if (invalid && typeof input === "string") return input;
  return JSON.stringify(input ?? {});
}
