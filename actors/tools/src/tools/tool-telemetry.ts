import {
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  trace,
} from "@opentelemetry/api";
import { ATTRIBUTES, METRICS, SPAN_NAMES, TELEMETRY_SCOPE, TroupeError } from "@troupe/protocol";
import type { ToolEffectClass, ToolExecutionStatus } from "@troupe/protocol";
import { perMeterProvider } from "../telemetry/per-meter-provider.js";

/** `troupe.tool.calls` of the current meter provider (one per process and provider). */
const toolCallCounter = perMeterProvider((meter) =>
  meter.createCounter(METRICS.toolCalls.name, {
    unit: METRICS.toolCalls.unit,
    description:
      "Tool calls that ended on this host, by effect class and outcome (outcome_unknown included).",
  }),
);

/**
 * One tool call's span (`execute_tool <tool>`, INTERNAL) and its
 * count, started in the active context — the host's `effect tool.execute`
 * span while the handler runs. With no OpenTelemetry SDK registered the span is
 * a no-op and nothing is counted.
 *
 * Attributes: `gen_ai.operation.name` `execute_tool`, `gen_ai.tool.name`,
 * `gen_ai.tool.call.id` (GenAI semantic conventions,
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/#execute-tool-span),
 * and at the end `troupe.tool.effect_class`, `troupe.tool.outcome` (the
 * `ToolExecutionStatus`: `succeeded`, `failed`, `invalid_arguments`,
 * `outcome_unknown`) and `troupe.tool.attempt` (the 1-based execution attempt
 * of the idempotency record that decided the outcome; absent when the tool never
 * ran). Each execution attempt that is retried adds an `execution attempt
 * failed` span event. A handler that throws (a store failed, the host gave the
 * effect up) ends the span with `error.type` and status ERROR and is not counted:
 * the effect runs again and is counted then.
 */
export class ToolCallTelemetry {
  readonly #span: Span;
  readonly #context: Context;
  #ended = false;

  /**
   * @param call - the tool's name (as the model asked for it) and the call id.
   */
  constructor(call: { readonly toolName: string; readonly toolCallId: string }) {
    const parent = otelContext.active();
    this.#span = trace.getTracer(TELEMETRY_SCOPE).startSpan(
      SPAN_NAMES.executeTool(call.toolName),
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTRIBUTES.genAiOperation]: "execute_tool",
          [ATTRIBUTES.genAiToolName]: call.toolName,
          [ATTRIBUTES.genAiToolCallId]: call.toolCallId,
        },
      },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  /** Runs `work` with the span active, so spans the tool's own code makes are its children. */
  within<T>(work: () => Promise<T>): Promise<T> {
    return otelContext.with(this.#context, work);
  }

  /**
   * Notes an execution attempt that failed and is retried (a span event).
   *
   * @param attempt - the execution attempt (1-based).
   * @param outcome - how it ended (`threw`, `timed_out`).
   */
  retried(attempt: number, outcome: string): void {
    if (!this.#span.isRecording()) return;
    this.#span.addEvent("execution attempt failed", {
      [ATTRIBUTES.toolAttempt]: attempt,
      [ATTRIBUTES.toolOutcome]: outcome,
    });
  }

  /**
   * Ends the span of a call with an outcome and counts it in `troupe.tool.calls`
   * by effect class and outcome. A `failed` or `outcome_unknown` outcome sets
   * `error.type` to the outcome and status ERROR.
   *
   * @param outcome - the output's status.
   * @param effectClass - the call's effect class; undefined for an unknown tool (not counted by class).
   * @param attempt - the execution attempt that decided it; undefined when the tool never ran.
   */
  ended(
    outcome: ToolExecutionStatus,
    effectClass: ToolEffectClass | undefined,
    attempt: number | undefined,
  ): void {
    if (this.#ended) return;
    this.#ended = true;
    toolCallCounter().add(1, {
      ...(effectClass === undefined ? {} : { [ATTRIBUTES.toolEffectClass]: effectClass }),
      [ATTRIBUTES.toolOutcome]: outcome,
    });
    if (this.#span.isRecording()) {
      this.#span.setAttribute(ATTRIBUTES.toolOutcome, outcome);
      if (effectClass !== undefined)
        this.#span.setAttribute(ATTRIBUTES.toolEffectClass, effectClass);
      if (attempt !== undefined) this.#span.setAttribute(ATTRIBUTES.toolAttempt, attempt);
      if (outcome === "failed" || outcome === "outcome_unknown") {
        this.#span.setAttribute(ATTRIBUTES.errorType, outcome);
        this.#span.setStatus({ code: SpanStatusCode.ERROR, message: `tool call ${outcome}` });
      }
    }
    this.#span.end();
  }

  /**
   * Ends the span of a handler that threw: `error.type` (a TroupeError's code,
   * else the error's name), status ERROR; not counted.
   *
   * @param error - what the handler throws.
   * @param effectClass - the call's effect class, when known.
   * @param attempt - the execution attempt running when it threw, if any.
   */
  threw(
    error: unknown,
    effectClass: ToolEffectClass | undefined,
    attempt: number | undefined,
  ): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#span.isRecording()) {
      if (effectClass !== undefined)
        this.#span.setAttribute(ATTRIBUTES.toolEffectClass, effectClass);
      if (attempt !== undefined) this.#span.setAttribute(ATTRIBUTES.toolAttempt, attempt);
      const type = TroupeError.isInstance(error)
        ? error.code
        : error instanceof Error && error.name.length > 0
          ? error.name
          : "_OTHER";
      this.#span.setAttribute(ATTRIBUTES.errorType, type);
      if (error instanceof Error) this.#span.recordException(error);
      this.#span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
    this.#span.end();
  }
}
