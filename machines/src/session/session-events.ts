import {
  questionAnswerSchema,
  toolApproveSchema,
  toolDenySchema,
  runCancelSchema,
  runFinishedSchema,
  runSteerSchema,
  sessionCloseSchema,
  sessionConfigureSchema,
  sessionCompactSchema,
  userMessageSchema,
  sessionForkSchema,
} from "@troupe/protocol";
import type {
  EffectCompletedEvent,
  EffectFailedEvent,
  InboxEvent,
  MessageSchemas,
  QuestionAnswer,
  ToolApprove,
  ToolDeny,
  RunCancel,
  RunFinished,
  RunSteer,
  SessionConfigure,
  UserMessage,
  SessionFork,
} from "@troupe/protocol";

/** A `session.fork` as the session machine takes it (docs/decisions/0043). */
export type SessionForkEvent = InboxEvent<"session.fork", SessionFork>;

/** A `user.message` as the session machine takes it. */
export type UserMessageEvent = InboxEvent<"user.message", UserMessage>;

/**
 * Events of {@link sessionMachine}: the session inbox's messages, as the host
 * delivers them (`{ ...payload, type, messageId, timestampMs }`).
 *
 * Public: `user.message`, `run.cancel`, `run.steer`, `session.configure`,
 * `session.close`, and `tool.approve`, `tool.deny`, `question.answer` (forwarded
 * to the tool call actor). From the run actor: `run.finished`. From the host:
 * the result of the session's `agent.resolve` effect (`effect.completed`,
 * `effect.failed`).
 */
export type SessionEvent =
  | UserMessageEvent
  | InboxEvent<"run.cancel", RunCancel>
  | InboxEvent<"run.steer", RunSteer>
  | InboxEvent<"session.configure", SessionConfigure>
  // `SessionClose` is `{}` as a zod output (`Record<string, never>`); no fields to add.
  | InboxEvent<"session.close", object>
  | InboxEvent<"session.compact", object>
  | InboxEvent<"tool.approve", ToolApprove>
  | InboxEvent<"tool.deny", ToolDeny>
  | InboxEvent<"question.answer", QuestionAnswer>
  | InboxEvent<"run.finished", RunFinished>
  | SessionForkEvent
  | EffectCompletedEvent
  | EffectFailedEvent;

/**
 * The message schemas a host registers for the `session` kind, i.e. every type
 * of {@link SessionEvent} (the host adds its own `effect.*` and `timer.fired`).
 */
export const sessionMessageSchemas = {
  "user.message": userMessageSchema,
  "run.cancel": runCancelSchema,
  "run.steer": runSteerSchema,
  "session.configure": sessionConfigureSchema,
  "session.close": sessionCloseSchema,
  "session.compact": sessionCompactSchema,
  "tool.approve": toolApproveSchema,
  "tool.deny": toolDenySchema,
  "question.answer": questionAnswerSchema,
  "run.finished": runFinishedSchema,
  "session.fork": sessionForkSchema,
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
