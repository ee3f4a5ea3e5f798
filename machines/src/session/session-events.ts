import type { SessionPolicy } from "@troupe/protocol";
import {
  type MessageSchemas,
  type QuestionAnswer,
  type ToolApprove,
  type ToolDeny,
  questionAnswerSchema,
  toolApproveSchema,
  toolDenySchema,
  type RunCancel,
  type RunFinished,
  type RunSteer,
  type SessionConfigure,
  type UserMessage,
  runCancelSchema,
  runFinishedSchema,
  runSteerSchema,
  sessionCloseSchema,
  sessionConfigureSchema,
  userMessageSchema,
} from "@troupe/protocol";
import type { InboxEvent } from "@troupe/protocol";

/**
 * Settings of the agent a session runs, added by the host to each `user.message`
 * event (they come from the agent definition, not from the wire). The first
 * message of a session takes them as the session's starting settings.
 */
export interface SessionAgentDefaults {
  readonly policy?: SessionPolicy;
  readonly maxModelCalls?: number;
}

/**
 * Events of {@link sessionMachine}: the session inbox's messages, as the host
 * delivers them (`{ ...payload, type, messageId, timestampMs }`).
 *
 * Public: `user.message`, `run.cancel`, `run.steer`, `session.configure`,
 * `session.close`, and `tool.approve`, `tool.deny`, `question.answer` (forwarded
 * to the tool call actor). From the run actor: `run.finished`.
 */
export type SessionEvent =
  | (InboxEvent<"user.message", UserMessage> & { readonly agentDefaults?: SessionAgentDefaults })
  | InboxEvent<"run.cancel", RunCancel>
  | InboxEvent<"run.steer", RunSteer>
  | InboxEvent<"session.configure", SessionConfigure>
  // `SessionClose` is `{}` as a zod output (`Record<string, never>`); no fields to add.
  | InboxEvent<"session.close", object>
  | InboxEvent<"tool.approve", ToolApprove>
  | InboxEvent<"tool.deny", ToolDeny>
  | InboxEvent<"question.answer", QuestionAnswer>
  | InboxEvent<"run.finished", RunFinished>;

/**
 * The message schemas a host registers for the `session` kind, i.e. every type
 * of {@link SessionEvent}.
 */
export const sessionMessageSchemas = {
  "user.message": userMessageSchema,
  "run.cancel": runCancelSchema,
  "run.steer": runSteerSchema,
  "session.configure": sessionConfigureSchema,
  "session.close": sessionCloseSchema,
  "tool.approve": toolApproveSchema,
  "tool.deny": toolDenySchema,
  "question.answer": questionAnswerSchema,
  "run.finished": runFinishedSchema,
} as const satisfies MessageSchemas;

/** Codes of the `message.rejected` events the session machine emits. */
export const SESSION_REJECTION_CODES = {
  /** The session is closed or closing. */
  sessionClosed: "session_closed",
  /** A run is active and the policy is `reject`. */
  runActive: "run_active",
  /** `run.steer` while no run is active. */
  noActiveRun: "no_active_run",
  /** `run.steer` naming a run that is not the active one. */
  runNotActive: "run_not_active",
  /** `tool.approve` / `tool.deny` / `question.answer` before the session's first run. */
  noRun: "no_run",
  /**
   * `tool.approve` / `tool.deny` / `question.answer` whose `sessionId` names
   * another session that is not a subagent's (`sub-…`) of this one.
   */
  unknownSession: "unknown_session",
  /** `session.configure` with a non-empty `toolPolicy.allow`: a session's tool policy only gets safer. */
  toolPolicyLoosening: "tool_policy_loosening",
} as const;
