import { isSpanContextValid, trace } from "@opentelemetry/api";

/**
 * The ids of the active span for a log record: `trace_id` and
 * `span_id` (32 and 16 lowercase hex characters, the OpenTelemetry log data
 * model's names), or nothing when no valid span is active (tracing off, or
 * outside any span). Used as the `mixin` of every pino logger the CLI creates.
 *
 * @returns `{ trace_id, span_id }` or `{}`.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
