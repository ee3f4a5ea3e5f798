import { z } from "zod";

/**
 * W3C Trace Context header carrying the trace id, parent span id and flags:
 * `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`
 * (https://www.w3.org/TR/trace-context/#traceparent-header). Troupe sets it on
 * every NATS message it publishes while tracing is configured (docs/decisions/0036).
 */
export const TRACEPARENT_HEADER = "traceparent";

/** W3C Trace Context vendor state (https://www.w3.org/TR/trace-context/#tracestate-header). */
export const TRACESTATE_HEADER = "tracestate";

/**
 * The trace context of one hop, as the W3C Trace Context headers carry it. It
 * travels in NATS message headers and is stored with what the host must redo
 * after a crash — pending effects and outbox items of the actor record — so a
 * run resumed on another host continues the same trace (docs/decisions/0036).
 * Absent when tracing is not configured.
 */
export interface TraceCarrier {
  /** `00-<trace id>-<span id>-<flags>`. */
  readonly traceparent: string;
  /** Vendor state, when the propagator set one. */
  readonly tracestate?: string;
}

const TRACEPARENT_PATTERN = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

/** Schema of a stored or received {@link TraceCarrier}: a malformed one is dropped, never fatal. */
export const traceCarrierSchema = z.object({
  traceparent: z.string().regex(TRACEPARENT_PATTERN),
  tracestate: z.string().max(512).optional(),
});

/**
 * Reads a trace carrier from message headers.
 *
 * @param get - header lookup (e.g. `(name) => msg.headers?.get(name)`); empty
 *   string and undefined both mean absent.
 * @returns the carrier, or undefined when there is no valid `traceparent`
 *   (a malformed header is ignored: tracing never rejects a message).
 */
export function traceCarrierFromHeaders(
  get: (name: string) => string | undefined,
): TraceCarrier | undefined {
  const traceparent = get(TRACEPARENT_HEADER);
  if (traceparent === undefined || traceparent === "") return undefined;
  const tracestate = get(TRACESTATE_HEADER);
  const parsed = traceCarrierSchema.safeParse(
    tracestate === undefined || tracestate === "" ? { traceparent } : { traceparent, tracestate },
  );
  return parsed.success ? parsed.data : undefined;
}
