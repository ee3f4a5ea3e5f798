import type { Usage } from "@troupe/protocol";
import {
  type ModelMessage,
  type ToolSet,
  experimental_streamLanguageModelCall as streamLanguageModelCall,
} from "ai";
import type { LanguageModelInstance } from "@troupe/models";
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
   * Bounds of the call (docs/decisions/0011), both in ms: `idleMs` — longest wait for the
   * first and for each next piece of model output (a non-empty text, reasoning
   * or tool-argument delta, or a tool call; SSE keep-alive comments and other
   * parts do not count); `callMs` — longest time for the whole call. Either
   * aborts the HTTP request and ends the result with `timedOut`. None when absent.
   */
  readonly timeouts?: { readonly idleMs: number; readonly callMs: number };
  /** The most output tokens the model may produce (spend limits reserve it); the provider's default when absent. */
  readonly maxOutputTokens?: number;
  /** Passed to the provider as `providerOptions` (e.g. `{ troupe: { retry } }` for the scripted model). */
  readonly providerOptions?: Record<string, Record<string, string | number | boolean>>;
  /** Called, and awaited, for every non-empty text or reasoning delta, in stream order. */
  readonly onDelta: (kind: "text" | "reasoning", text: string) => Promise<void>;
}

/**
 * Everything one streamed model call produced, however it ended.
 *
 * `finished` — the stream reached its end part (`model-call-end`); `aborted` —
 * it ended because the signal or a bound aborted it; `timedOut` — which of
 * `options.timeouts` ended it (then `aborted` is true too, the caller's signal
 * is not aborted); `error` — the first error part or thrown error (`hasError`
 * tells an `undefined` error apart).
 */
export interface StreamedModelCall {
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: StreamedToolCall[];
  readonly usage: Usage;
  readonly finishReason: string | undefined;
  /** The model id the provider said answered (`model-call-response-metadata`), when it said. */
  readonly responseModel: string | undefined;
  readonly finished: boolean;
  readonly aborted: boolean;
  readonly timedOut: "idle" | "call" | undefined;
  readonly hasError: boolean;
  readonly error: unknown;
}

/**
 * Streams one model call with the AI SDK's `experimental_streamLanguageModelCall`
 * — exactly one call of the language model, with the SDK's own prompt
 * conversion, tool preparation and tool-call parsing, **no retries** (the run
 * machine retries durably) — and gathers its text, reasoning, tool calls and
 * usage. Tool calls keep the model's arguments text: a call the SDK could not
 * parse (invalid JSON, unknown tool) carries the raw text, a parsed one is
 * re-serialised with `JSON.stringify`. Never throws for provider errors or
 * aborts: they are reported in the result.
 *
 * Why not `streamText`: for one step without tool execution it
 * wraps the same call in a multi-step pipeline of web streams; measured on
 * the benchmark machine (Node 20, scripted model, 10-word answer) it costs
 * ≈ 2.1 ms of CPU per call against ≈ 0.3 ms for the single call
 * (docs/decisions/0016).
 *
 * Timeouts are ours: one abort controller joins the caller's signal, the call
 * bound (a timer cleared when the call ends) and the idle bound (a timer
 * re-armed with `refresh()` at every output part — text, reasoning, tool-call
 * arguments — so a stream that sends no output for `idleMs` is aborted, the
 * first output included). An abort also
 * cancels the stream reader, so a provider that ignores its signal cannot hold
 * the call.
 *
 * @param options - model, prompt, signal and delta callback.
 * @returns what streamed, see {@link StreamedModelCall}.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/stream-text — the options this mirrors
 * @see https://ai-sdk.dev/providers/community-providers/custom-providers — the stream parts of a language model
 */
export async function streamModelCall(options: StreamModelCallOptions): Promise<StreamedModelCall> {
  let text = "";
  let reasoning = "";
  const toolCalls: StreamedToolCall[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: string | undefined;
  let responseModel: string | undefined;
  let finished = false;
  let hasError = false;
  let error: unknown;
  const fail = (value: unknown) => {
    if (hasError) return;
    hasError = true;
    error = value;
  };
  const controller = new AbortController();
  let timedOut: "idle" | "call" | undefined;
  const bound = (which: "idle" | "call", ms: number) =>
    setTimeout(() => {
      if (controller.signal.aborted) return;
      timedOut = which;
      controller.abort(
        new DOMException(
          which === "call" ? `call timeout of ${ms} ms exceeded` : `no output for ${ms} ms`,
          "TimeoutError",
        ),
      );
    }, ms);
  const callTimer =
    options.timeouts === undefined ? undefined : bound("call", options.timeouts.callMs);
  const idleTimer =
    options.timeouts === undefined ? undefined : bound("idle", options.timeouts.idleMs);
  const onCallerAbort = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) onCallerAbort();
  else options.signal.addEventListener("abort", onCallerAbort, { once: true });
  try {
    const { stream } = await streamLanguageModelCall({
      model: options.model,
      instructions: options.instructions,
      messages: options.messages,
      abortSignal: controller.signal,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
      ...(options.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: options.maxOutputTokens }),
      ...(options.providerOptions === undefined
        ? {}
        : { providerOptions: options.providerOptions }),
    });
    const reader = stream.getReader();
    const cancel = () => void reader.cancel(controller.signal.reason).catch(() => undefined);
    if (controller.signal.aborted) cancel();
    else controller.signal.addEventListener("abort", cancel, { once: true });
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      if (OUTPUT_PARTS.has(part.type)) idleTimer?.refresh();
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
        case "model-call-response-metadata":
          if (part.modelId !== undefined) responseModel = part.modelId;
          break;
        case "model-call-end":
          usage.inputTokens += part.usage.inputTokens ?? 0;
          usage.outputTokens += part.usage.outputTokens ?? 0;
          finishReason = part.finishReason;
          finished = true;
          break;
        case "error":
          fail(part.error);
          break;
        default:
          break;
      }
    }
    controller.signal.removeEventListener("abort", cancel);
  } catch (thrown) {
    if (!controller.signal.aborted) fail(thrown);
  } finally {
    clearTimeout(callTimer);
    clearTimeout(idleTimer);
    options.signal.removeEventListener("abort", onCallerAbort);
  }
  // An abort ends the call however the stream ended; a bound is reported only
  // when the caller did not cancel first.
  const aborted = controller.signal.aborted && !finished;
  const bounded = aborted && !options.signal.aborted ? timedOut : undefined;
  return {
    text,
    reasoning,
    toolCalls,
    usage,
    finishReason,
    responseModel,
    finished,
    aborted,
    timedOut: bounded,
    hasError: bounded === undefined && !aborted && hasError,
    error: bounded === undefined && !aborted ? error : undefined,
  };
}

/**
 * Parts that are output and re-arm the idle bound (decision 0011): text,
 * reasoning, tool-call arguments, a whole tool call, files, sources, the end.
 * Starts of parts, metadata and keep-alives (which make no part) do not.
 */
const OUTPUT_PARTS: ReadonlySet<string> = new Set([
  "text-delta",
  "reasoning-delta",
  "tool-input-delta",
  "tool-call",
  "file",
  "reasoning-file",
  "source",
  "model-call-end",
]);

/** The arguments text of a streamed call: the raw text of an invalid call, else the parsed input as JSON. */
function rawArguments(input: unknown, invalid: boolean): string {
  if (invalid && typeof input === "string") return input;
  return JSON.stringify(input ?? {});
}
