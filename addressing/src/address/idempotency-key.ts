/**
 * The idempotency key of a tool call: `<sessionId>/<runId>/<toolCallId>`. The
 * host passes it to the tool's `execute` (so a tool can hand it on, to a payment
 * API say) and keys the call's idempotency record with it; the tool actor's id is a hash of
 * it ({@link toolActorId}).
 *
 * The parts are joined as given. A session id cannot contain `/` (it is an actor
 * id) and run ids are `r<n>`, so the key is unambiguous for the ids Troupe makes.
 *
 * @param sessionId - the session (an actor id).
 * @param runId - the run within the session, e.g. `"r3"`.
 * @param toolCallId - the model's id of the tool call, e.g. `"call_8KQ2"`.
 * @returns e.g. `"demo-1/r3/call_8KQ2"`.
 *
 * @example
 * ```ts
 * idempotencyKeyOf("demo-1", "r3", "call_8KQ2"); // "demo-1/r3/call_8KQ2"
 * ```
 */
export function idempotencyKeyOf(sessionId: string, runId: string, toolCallId: string): string {
  return `${sessionId}/${runId}/${toolCallId}`;
}
