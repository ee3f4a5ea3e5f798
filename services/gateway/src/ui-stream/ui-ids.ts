import { isValidActorId } from "@troupe/protocol";

/**
 * Ids the UI message stream gives to what it shows (decision 0027).
 * Run ids (`r1`, `r2`, …) and model tool call ids repeat across a session
 * and its subagents' `sub-…` sessions, so every UI id names its owner.
 */

/**
 * The assistant message id of a run: `troupe:<sessionId>:<runId>`. The same
 * in every stream of the run (the POST's, a continuation's, a resume's), so a
 * client replaces, never duplicates, the message.
 *
 * @param sessionId - the session (actor-id-safe).
 * @param runId - the run, e.g. `"r3"`.
 */
export function runMessageId(sessionId: string, runId: string): string {
  return `troupe:${sessionId}:${runId}`;
}

/**
 * The run a {@link runMessageId} names, or `undefined` for any other id.
 *
 * @param messageId - a UI message id.
 * @returns `{ sessionId, runId }`.
 */
export function parseRunMessageId(
  messageId: string,
): { readonly sessionId: string; readonly runId: string } | undefined {
  const match = /^troupe:([A-Za-z0-9_-]{1,128}):(.+)$/.exec(messageId);
  if (match === null) return undefined;
  return { sessionId: match[1] ?? "", runId: match[2] ?? "" };
}

/**
 * The UI `toolCallId` of a tool call: the model's id for a call of the
 * session itself, `<ownerSessionId>:<toolCallId>` for a subagent's call (its
 * ids repeat the parent's).
 *
 * @param sessionId - the session the stream follows.
 * @param ownerSessionId - the session that owns the call.
 * @param toolCallId - the model's id of the call.
 */
export function uiToolCallId(
  sessionId: string,
  ownerSessionId: string,
  toolCallId: string,
): string {
  return ownerSessionId === sessionId ? toolCallId : `${ownerSessionId}:${toolCallId}`;
}

/**
 * The `approvalId` of a `tool-approval-request`: `<ownerSessionId>:<toolCallId>`,
 * so the next `POST /api/chat` (the SDK sends the id back in the part's
 * `approval.id`) finds the call and the session that owns it. Session ids
 * never hold `:`, so the first `:` splits it.
 *
 * @param ownerSessionId - the session that owns the call (a subagent's `sub-…` or the session itself).
 * @param toolCallId - the model's id of the call.
 */
export function approvalIdOf(ownerSessionId: string, toolCallId: string): string {
  return `${ownerSessionId}:${toolCallId}`;
}

/**
 * The call an {@link approvalIdOf} id names, or `undefined` when it is not one.
 *
 * @param approvalId - from a tool part's `approval.id`.
 * @returns `{ ownerSessionId, toolCallId }`.
 */
export function parseApprovalId(
  approvalId: string,
): { readonly ownerSessionId: string; readonly toolCallId: string } | undefined {
  const colon = approvalId.indexOf(":");
  if (colon <= 0 || colon === approvalId.length - 1) return undefined;
  const ownerSessionId = approvalId.slice(0, colon);
  const toolCallId = approvalId.slice(colon + 1);
  if (!isValidActorId(ownerSessionId) || toolCallId.length > 256) return undefined;
  return { ownerSessionId, toolCallId };
}
