import fc from "fast-check";
import {
  addressTextArbitrary,
  identifierArbitrary,
  timestampMsArbitrary,
} from "./field-arbitraries.js";

/**
 * Arbitrary message envelopes of one type.
 *
 * @param type - message type.
 * @param payload - arbitrary of its payloads.
 * @returns full v1 envelopes.
 */
export function messageEnvelopeArbitrary(type: string, payload: fc.Arbitrary<unknown>) {
  return fc.record({
    v: fc.constant(1 as const),
    id: identifierArbitrary,
    type: fc.constant(type),
    payload,
    meta: fc.record(
      {
        actor: addressTextArbitrary,
        causationId: identifierArbitrary,
        correlationId: identifierArbitrary,
        timestampMs: timestampMsArbitrary,
      },
      { requiredKeys: ["timestampMs"] },
    ),
  });
}

/**
 * Arbitrary event envelopes of one type.
 *
 * @param type - event type.
 * @param payload - arbitrary of its payloads.
 * @returns full v1 envelopes.
 */
export function eventEnvelopeArbitrary(type: string, payload: fc.Arbitrary<unknown>) {
  return fc.record({
    v: fc.constant(1 as const),
    id: identifierArbitrary,
    type: fc.constant(type),
    payload,
    meta: fc.record(
      {
        actor: addressTextArbitrary,
        seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        timestampMs: timestampMsArbitrary,
        causationId: identifierArbitrary,
        correlationId: identifierArbitrary,
      },
      { requiredKeys: ["actor", "seq", "timestampMs"] },
    ),
  });
}
