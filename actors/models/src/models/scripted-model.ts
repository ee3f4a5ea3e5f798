import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4StreamResult,
  type LanguageModelV4Usage,
} from "@ai-sdk/provider";
import {
  type ScriptedError,
  type ScriptedRequest,
  type ScriptedScript,
  type ScriptedStep,
  estimateTokens,
  estimateTokensOfLength,
  scriptedStepSchema,
} from "./scripted-step.js";
import {
  playParts,
  providerUsage,
  scriptedStreamParts,
  stepFinishReason,
} from "./scripted-stream.js";

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Model id reported to the AI SDK. Default `"script"`. */
  readonly modelId?: string;
}

/**
 * A deterministic AI SDK language model (provider spec v4, the one `ai` 7
 * calls) that answers from a script instead of a provider: for tests, the demo
 * and benchmarks. It streams text word by word, reasoning, tool calls, usage and
 * provider errors exactly as a provider would, so everything above it (the AI
 * SDK, the model-call handler, the run machine) runs unchanged.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel([
 *   { text: "Hello there!", usage: { inputTokens: 12, outputTokens: 3 } },
 *   { error: { message: "overloaded", retryable: true } },
 * ]);
 * const result = streamText({ model, prompt: "hi", maxRetries: 0 });
 * ```
 * @see https://ai-sdk.dev/providers/community-providers/custom-providers — the provider spec
 */
export class ScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "troupe.scripted";
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #script: ScriptedScript;
  #callCount = 0;
  #lastCall: LanguageModelV4CallOptions | undefined;

  /**
   * @param script - steps answered in call order, or a function of the request.
   * @param options - `modelId` (default `"script"`).
   */
  constructor(script: ScriptedScript, options: ScriptedModelOptions = {}) {
    this.#script = script;
    this.modelId = options.modelId ?? "script";
  }

  /** Calls made on this instance so far (`doStream` and `doGenerate`). */
  get callCount(): number {
    return this.#callCount;
  }

  /** The options of the latest call (prompt, tools, abort signal, …), for assertions in tests. */
  get lastCall(): LanguageModelV4CallOptions | undefined {
    return this.#lastCall;
  }

  /**
   * Streams the next step.
   *
   * @throws APICallError when the step has an `error` and nothing to stream first.
   * @throws the abort signal's reason when the call is already aborted.
   */
  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { step, usage } = await this.#next(options);
    const streamsFirst = (step.text ?? "") !== "" || (step.reasoning ?? "") !== "";
    if (step.error !== undefined && !streamsFirst) throw this.#providerError(step.error, options);
    const streamError =
      step.error === undefined ? undefined : this.#providerError(step.error, options);
    return {
      stream: playParts(scriptedStreamParts(step, usage, streamError), options.abortSignal),
    };
  }

  /**
   * Answers the next step in one piece (no chunk delays).
   *
   * @throws APICallError when the step has an `error`.
   */
  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { step, usage } = await this.#next(options);
    if (step.error !== undefined) throw this.#providerError(step.error, options);
    const content: LanguageModelV4Content[] = [];
    if (step.reasoning) content.push({ type: "reasoning", text: step.reasoning });
    if (step.text) content.push({ type: "text", text: step.text });
    for (const call of step.toolCalls ?? []) {
      const input = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
      content.push({
        type: "tool-call",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input,
      });
    }
    return { content, finishReason: stepFinishReason(step), usage, warnings: [] };
  }

  async #next(
    options: LanguageModelV4CallOptions,
  ): Promise<{ step: ScriptedStep; usage: LanguageModelV4Usage }> {
    options.abortSignal?.throwIfAborted();
    const callIndex = this.#callCount++;
    this.#lastCall = options;
    const step = scriptedStepSchema.parse(await this.#stepFor(options, callIndex));
    const inputTokens = step.usage?.inputTokens ?? estimateTokensOfLength(promptLength(options));
    const outputTokens = step.usage?.outputTokens ?? estimateTokens(outputText(step));
    return { step, usage: providerUsage(inputTokens, outputTokens) };
  }

  async #stepFor(options: LanguageModelV4CallOptions, callIndex: number): Promise<ScriptedStep> {
    const script = this.#script;
    if (typeof script === "function") {
      const request: ScriptedRequest = {
        messages: options.prompt,
        callIndex,
        toolNames: (options.tools ?? []).map((tool) => tool.name),
        troupe: options.providerOptions?.["troupe"],
      };
      return script(request);
    }
    const step = script[callIndex];
    if (step === undefined) {
      throw new Error(
        `ScriptedModel "${this.modelId}" has ${script.length} scripted steps; call ${callIndex + 1} has none`,
      );
    }
    return step;
  }

  #providerError(error: ScriptedError, options: LanguageModelV4CallOptions): APICallError {
    return new APICallError({
      message: error.message,
      url: `scripted://${this.modelId}`,
      requestBodyValues: { prompt: options.prompt },
      statusCode: error.statusCode ?? (error.retryable ? 503 : 400),
      isRetryable: error.retryable,
    });
  }
}

/** All text of a prompt (system, user, assistant and tool text), for the token estimate. */
function promptLength(options: LanguageModelV4CallOptions): number {
  // The length of the prompt's texts joined by newlines (`estimateTokens` of
  // that text is its length ÷ 4), summed without building the text: a long
  // session's prompt is rebuilt per call.
  let length = Math.max(0, options.prompt.length - 1);
  for (const message of options.prompt) {
    if (typeof message.content === "string") length += message.content.length;
    else for (const part of message.content) if ("text" in part) length += part.text.length;
  }
  return length;
}

/** All output of a step (reasoning, text and tool inputs), for the token estimate. */
function outputText(step: ScriptedStep): string {
  const calls = (step.toolCalls ?? []).map((call) =>
    typeof call.input === "string" ? call.input : JSON.stringify(call.input),
  );
  return [step.reasoning ?? "", step.text ?? "", ...calls].join("");
}
