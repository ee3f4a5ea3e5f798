import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
import type { PendingInput, PendingDecision } from "@troupe/client/tasks";

/** Longest rendering of a tool call's arguments in an approval request, in characters. */
const MAX_ARGUMENTS_CHARS = 500;

/**
 * The elicitation request (`elicitation/create`, form mode) that puts an
 * approval or a question of a run to the MCP client's user (docs/decisions/0025):
 *
 * - approval: "Approve send_email {…}?" with `{ approve: boolean, reason?: string }`;
 * - question: the question's text with `{ answer: string }` (an enum of its choices when it has some).
 *
 * @param pending - the open approval or question.
 * @param taskId - the task it belongs to: set as the related task in `_meta`.
 */
export function elicitationFor(pending: PendingInput, taskId: string): ElicitRequestFormParams {
  const _meta = { [RELATED_TASK_META_KEY]: { taskId } };
  if (pending.kind === "approval") {
    let rendered = JSON.stringify(pending.arguments) ?? "";
    if (rendered.length > MAX_ARGUMENTS_CHARS) {
      rendered = `${rendered.slice(0, MAX_ARGUMENTS_CHARS - 1)}…`;
    }
    return {
      mode: "form",
      message: `The agent wants to call ${pending.tool} ${rendered}. Approve this call?`,
      requestedSchema: {
        type: "object",
        properties: {
          approve: { type: "boolean", title: "Approve", description: `Run ${pending.tool}` },
          reason: {
            type: "string",
            title: "Reason",
            description: "Told to the agent when you deny the call",
          },
        },
        required: ["approve"],
      },
      _meta,
    };
  }
  const answer =
    pending.choices === undefined || pending.choices.length === 0
      ? { type: "string" as const, title: "Answer" }
      : { type: "string" as const, title: "Answer", enum: [...pending.choices] };
  return {
    mode: "form",
    message: pending.text,
    requestedSchema: { type: "object", properties: { answer }, required: ["answer"] },
    _meta,
  };
}

/**
 * How the user's response settles the approval or question (docs/decisions/0025):
 * `accept` with `approve: true` approves, with `approve: false` denies (with
 * the `reason`); `decline` denies an approval; an accepted answer answers a
 * question. `cancel` (dismissed) or a declined question settle nothing: the
 * wait stays open for another client or `troupe approve`. Accepted content
 * that does not fit settles nothing either; `troupe mcp` then answers the call
 * with an error saying so, rather than leave the caller waiting.
 *
 * @param pending - the approval or question that was asked.
 * @param result - the client's `elicitation/create` result.
 * @returns the decision, or `undefined` when nothing is settled.
 */
export function decisionFrom(
  pending: PendingInput,
  result: ElicitResult,
): PendingDecision | undefined {
  const content = result.content ?? {};
  if (pending.kind === "approval") {
    if (result.action === "decline") {
      return { kind: "deny", reason: "declined by the MCP client's user" };
    }
    if (result.action !== "accept" || typeof content["approve"] !== "boolean") return undefined;
    if (content["approve"]) return { kind: "approve" };
    const reason = content["reason"];
    return typeof reason === "string" && reason.trim() !== ""
      ? { kind: "deny", reason }
      : { kind: "deny" };
  }
  const answer = content["answer"];
  if (result.action !== "accept" || typeof answer !== "string") return undefined;
  return { kind: "answer", text: answer };
}
