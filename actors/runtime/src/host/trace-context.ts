import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  type Tracer,
  propagation,
  trace,
} from "@opentelemetry/api";
import { TELEMETRY_SCOPE, type TraceCarrier, traceCarrierFromHeaders } from "@troupe/protocol";

/**
 * The host's tracer (`TELEMETRY_SCOPE`). Through `@opentelemetry/api` only: a
 * no-op until an SDK registers a tracer provider (the CLI does, from the
 * `OTEL_*` environment; docs/decisions/0036).
 */
export function hostTracer(): Tracer {
  return trace.getTracer(TELEMETRY_SCOPE);
}

/**
 * The context a stored or received carrier continues: the remote span of its
 * `traceparent` under the root context (never the caller's active context, so
 * one actor's trace never leaks into another's).
 *
 * @param carrier - a carrier from message headers or an actor record; undefined: the root context.
 * @returns a context to start child spans in (the root context when no
 *   propagator is registered).
 */
export function contextOfCarrier(carrier: TraceCarrier | undefined): Context {
  if (carrier === undefined) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/**
 * The carrier of `span`, to store with what it produced (outbox items,
 * pending effects) and send as message headers.
 *
 * @param span - the span to continue from.
 * @returns `{ traceparent, tracestate? }`, or undefined when nothing was
 *   injected (no propagator registered: tracing is off).
 */
export function carrierOfSpan(span: Span): TraceCarrier | undefined {
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), headers);
  if (headers.traceparent === undefined) return undefined;
  return traceCarrierFromHeaders((name) => headers[name]);
}

/**
 * Marks `span` failed with `error` (status ERROR, the exception recorded).
 *
 * @param span - the span.
 * @param error - anything thrown (a value that cannot be inspected is described generically).
 */
export function failSpan(span: Span, error: unknown): void {
  let message = "failed";
  try {
    if (error instanceof Error) {
      message = error.message;
      span.recordException(error);
    } else {
      message = String(error);
    }
  } catch {
    // a hostile thrown value: keep the generic message
  }
  span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 500) });
}
