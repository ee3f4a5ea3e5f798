import {
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  trace,
} from "@opentelemetry/api";
import { ATTRIBUTES, METRICS, SPAN_NAMES, TELEMETRY_SCOPE, TroupeError } from "@troupe/protocol";
import type { ModelCallOutput } from "@troupe/protocol";
import type { LanguageModelInstance } from "@troupe/models";
import { perMeterProvider } from "@troupe/tools/internal";

/**
 * Bucket boundaries of the token usage histogram, in tokens: the ones the
 * GenAI semantic conventions advise for `gen_ai.client.token.usage`
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-metrics/).
 */
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/**
 * `gen_ai.client.token.usage` of the current meter provider (one per process
 * and provider).
 */
const tokenHistogram = perMeterProvider((meter) =>
  meter.createHistogram(METRICS.tokenUsage.name, {
    unit: METRICS.tokenUsage.unit,
    description: "Tokens used per model call, input and output apart (gen_ai.token.type).",
    advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
  }),
);

/**
 * The GenAI `gen_ai.provider.name` of an AI SDK model: the part of its
 * `provider` before the first dot (`openai.responses` → `openai`,
 * `anthropic.messages` → `anthropic`, the scripted model's `troupe.scripted` → `troupe`).
 */
export function genAiProviderName(model: Pick<LanguageModelInstance, "provider">): string {
  const dot = model.provider.indexOf(".");
  return dot < 0 ? model.provider : model.provider.slice(0, dot);
}

/**
 * The `error.type` of a failed model call: a TroupeError's code
 * (`model_timeout`, `model_error`, …), else the error's name, else `_OTHER`
 * (the semantic conventions' fallback).
 */
export function errorTypeOf(error: unknown): string {
  if (TroupeError.isInstance(error)) return error.code;
  if (error instanceof Error && error.name.length > 0) return error.name;
  return "_OTHER";
}

/**
 * One model call's span (`chat <model>`, CLIENT) and its metrics,
 * started in the active context — the host's `effect model.call` span while
 * the handler runs — so the span is that effect's child. With no OpenTelemetry
 * SDK registered the span is a no-op and nothing is recorded.
 *
 * Attributes (GenAI semantic conventions,
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/):
 * `gen_ai.operation.name` `chat`, `gen_ai.provider.name`, `gen_ai.request.model`
 * at the start; `gen_ai.response.model`, `gen_ai.usage.input_tokens` /
 * `output_tokens` and `gen_ai.response.finish_reasons` (string[]) at the end;
 * `error.type` with status ERROR when it fails (timeouts, provider errors) or is cancelled.
 */
export class ModelCallTelemetry {
  readonly #span: Span;
  readonly #context: Context;
  readonly #requestModel: string;
  #ended = false;

  /**
   * @param model - the resolved model (its `provider` and `modelId`).
   */
  constructor(model: LanguageModelInstance) {
    this.#requestModel = model.modelId;
    const parent = otelContext.active();
    this.#span = trace.getTracer(TELEMETRY_SCOPE).startSpan(
      SPAN_NAMES.chat(model.modelId),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTRIBUTES.genAiOperation]: "chat",
          [ATTRIBUTES.genAiProvider]: genAiProviderName(model),
          [ATTRIBUTES.genAiRequestModel]: model.modelId,
        },
      },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  /**
   * Runs `work` with the chat span active, so spans the provider's HTTP
   * client makes (when instrumented) are its children.
   */
  within<T>(work: () => Promise<T>): Promise<T> {
    return otelContext.with(this.#context, work);
  }

  /**
   * Ends the span of a call that answered: its usage, finish reason and
   * response model; records the token usage (input and output apart) by the
   * requested model. A cancelled call's partial answer (`cancelled: true`)
   * ends the span with `error.type` `cancelled` and records no usage.
   *
   * @param output - what the call returns.
   * @param responseModel - the model id the provider said answered, when it said.
   */
  succeeded(output: ModelCallOutput, responseModel: string | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const cancelled = output.cancelled === true;
    const { inputTokens, outputTokens } = output.usage;
    if (!cancelled) {
      // A cancelled call never reached its end part: it has no usage to record.
      const histogram = tokenHistogram();
      const attributes = {
        [ATTRIBUTES.genAiOperation]: "chat",
        [ATTRIBUTES.genAiRequestModel]: this.#requestModel,
      };
      histogram.record(inputTokens, { ...attributes, [ATTRIBUTES.genAiTokenType]: "input" });
      histogram.record(outputTokens, { ...attributes, [ATTRIBUTES.genAiTokenType]: "output" });
    }
    if (this.#span.isRecording()) {
      this.#span.setAttribute(ATTRIBUTES.genAiFinishReasons, [output.finishReason]);
      if (cancelled) {
        this.#span.setAttribute(ATTRIBUTES.errorType, "cancelled");
        this.#span.setStatus({
          code: SpanStatusCode.ERROR,
          message: "the model call was cancelled",
        });
      } else {
        this.#span.setAttributes({
          [ATTRIBUTES.genAiResponseModel]: responseModel ?? this.#requestModel,
          [ATTRIBUTES.genAiInputTokens]: inputTokens,
          [ATTRIBUTES.genAiOutputTokens]: outputTokens,
        });
      }
    }
    this.#span.end();
  }

  /**
   * Ends the span of a call that failed: `error.type` (see {@link errorTypeOf}),
   * status ERROR with the error's message, the exception as a span event.
   *
   * @param error - what the handler throws.
   */
  failed(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#span.isRecording()) {
      const message = error instanceof Error ? error.message : String(error);
      this.#span.setAttribute(ATTRIBUTES.errorType, errorTypeOf(error));
      if (error instanceof Error) this.#span.recordException(error);
      this.#span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    this.#span.end();
  }
}
