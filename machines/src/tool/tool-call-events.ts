import {
  subagentFinishedSchema,
  questionAnswerSchema,
  toolApproveSchema,
  toolCancelSchema,
  toolDenySchema,
  toolStartSchema,
} from "@troupe/protocol";
import type {
  EffectCompletedEvent,
  EffectFailedEvent,
  MessageSchemas,
  QuestionAnswer,
  SubagentFinished,
  ToolApprove,
  ToolCancel,
  ToolDeny,
  ToolStart,
  InboxEvent,
} from "@troupe/protocol";

/**
 * Events of {@link toolCallMachine}: messages from the run actor
 * (`tool.start`, `tool.cancel`), settlements forwarded by the session
 * (`tool.approve`, `tool.deny`, `question.answer`) and the result of its
 * `tool.execute` effect (`effect.completed`, `effect.failed`).
 */
export type ToolCallEvent =
  | InboxEvent<"tool.start", ToolStart>
  | InboxEvent<"tool.cancel", ToolCancel>
  | InboxEvent<"tool.approve", ToolApprove>
  | InboxEvent<"tool.deny", ToolDeny>
  | InboxEvent<"question.answer", QuestionAnswer>
  | InboxEvent<"subagent.finished", SubagentFinished>
  | EffectCompletedEvent
  | EffectFailedEvent;

/**
 * The message schemas a host registers for the `tool` kind (the host adds its
 * own `effect.*` and `timer.fired`).
 */
export const toolMessageSchemas = {
  "tool.start": toolStartSchema,
  "tool.cancel": toolCancelSchema,
  "tool.approve": toolApproveSchema,
  "tool.deny": toolDenySchema,
  "question.answer": questionAnswerSchema,
  "subagent.finished": subagentFinishedSchema,
} as const satisfies MessageSchemas;

/** Effect id of a tool call actor's one `tool.execute` request. */
export const TOOL_EXECUTE_EFFECT_ID = "execute";

/** Name of the built-in tool every agent has: asks the user and waits for `question.answer`. */
export const ASK_USER_TOOL = "ask_user";
/** How long a call that asks for approval waits before it counts as denied: 24 h, in ms. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 86_400_000;
/** `tool.failed` error code when the policy or the user denied the call (or its approval timed out). */
export const DENIED_CODE = "denied";

/** `tool.failed` error code when a subagent tried to delegate further than the maximum depth. */
export const DELEGATION_DEPTH_CODE = "delegation_depth_exceeded";

/** `tool.failed` error code when the tool threw (status `failed`). */
export const TOOL_FAILED_CODE = "tool_failed";
/** `tool.failed` error code when the arguments or the tool were not valid (status `invalid_arguments`). */
export const INVALID_ARGUMENTS_CODE = "invalid_arguments";
/** `tool.failed` error code when `tool.execute` returned something that is not a `{ status, content, truncated? }` output. */
export const INVALID_TOOL_OUTPUT_CODE = "invalid_tool_output";
