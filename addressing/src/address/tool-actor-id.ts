import { idempotencyKeyOf } from "./idempotency-key.js";

// FNV-1a, 128 bits (http://www.isthe.com/chongo/tech/comp/fnv/): offset basis
// and prime as published there; BigInt keeps it exact without node:crypto, so
// pure machines can call it.
const FNV128_OFFSET_BASIS = 0x6c62272e07bb014262b821756295c58dn;
const FNV128_PRIME = 0x0000000001000000000000000000013bn;
const utf8 = new TextEncoder();

/**
 * FNV-1a, 128 bits, over `bytes`.
 *
 * @param bytes - data to hash.
 * @returns the hash as an unsigned 128-bit bigint.
 */
export function fnv1a128(bytes: Uint8Array): bigint {
  let hash = FNV128_OFFSET_BASIS;
  for (const byte of bytes) {
    hash = BigInt.asUintN(128, (hash ^ BigInt(byte)) * FNV128_PRIME);
  }
  return hash;
}

/**
 * The actor id of a tool call's actor (`tool/<id>`): `t` followed by the 32
 * lowercase hex digits of FNV-1a 128 over the UTF-8 bytes of the call's
 * idempotency key `<sessionId>/<runId>/<toolCallId>` ({@link idempotencyKeyOf}).
 *
 * Deterministic (a run that is replayed, or re-sends `tool.start`, reaches the
 * same actor), 33 characters long and token-safe whatever the model's tool call
 * id contains (providers' ids may hold characters an actor id cannot).
 *
 * @param sessionId - the session (an actor id).
 * @param runId - the run within the session, e.g. `"r3"`.
 * @param toolCallId - the model's id of the tool call.
 * @returns e.g. `"t36512fe87ad9ac54ed35893287693a76"` for `("demo-1", "r3", "call_8KQ2")`.
 *
 * @example
 * ```ts
 * formatAddress({ kind: "tool", id: toolActorId("demo-1", "r3", "call_8KQ2") });
 * // "tool/t36512fe87ad9ac54ed35893287693a76"
 * ```
 */
export function toolActorId(sessionId: string, runId: string, toolCallId: string): string {
  const hash = fnv1a128(utf8.encode(idempotencyKeyOf(sessionId, runId, toolCallId)));
  return `t${hash.toString(16).padStart(32, "0")}`;
}
