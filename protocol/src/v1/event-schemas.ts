import {
  messageAcceptedSchema,
  messageDuplicateSchema,
  messageRejectedSchema,
} from "./events/message-events.js";
import { questionAnsweredSchema, questionAskedSchema } from "./events/question-events.js";
import {
  runCancelledSchema,
  runCompletedSchema,
  runDeltaSchema,
  runFailedSchema,
  runStartedSchema,
} from "./events/run-events.js";
import {
  sessionClosedSchema,
  sessionCreatedSchema,
  sessionIdleSchema,
} from "./events/session-events.js";
import { subagentCompletedSchema, subagentStartedSchema } from "./events/subagent-events.js";
import {
  toolApprovalRequestedSchema,
  toolApprovalSettledSchema,
  toolCompletedSchema,
  toolFailedSchema,
  toolOutcomeUnknownSchema,
  toolStartedSchema,
} from "./events/tool-events.js";
import type { PayloadSchemas } from "./payload-of.js";

/**
 * A registry of event payload schemas by event type; `decodeEvent` accepts exactly
 * the types it names.
 *
 * Shape: `{ [eventType: string]: z.ZodType }`.
 */
export type EventSchemas = PayloadSchemas;

/** Every event type of version 1 and its payload schema; the default registry of `decodeEvent`. */
export const builtinEventSchemas = {
  "session.created": sessionCreatedSchema,
  "session.idle": sessionIdleSchema,
  "session.closed": sessionClosedSchema,
  "message.accepted": messageAcceptedSchema,
  "message.duplicate": messageDuplicateSchema,
  "message.rejected": messageRejectedSchema,
  "run.started": runStartedSchema,
  "run.delta": runDeltaSchema,
  "run.completed": runCompletedSchema,
  "run.failed": runFailedSchema,
  "run.cancelled": runCancelledSchema,
  "tool.started": toolStartedSchema,
  "tool.completed": toolCompletedSchema,
  "tool.failed": toolFailedSchema,
  "tool.outcome_unknown": toolOutcomeUnknownSchema,
  "tool.approval_requested": toolApprovalRequestedSchema,
  "tool.approval_settled": toolApprovalSettledSchema,
  "question.asked": questionAskedSchema,
  "question.answered": questionAnsweredSchema,
  "subagent.started": subagentStartedSchema,
  "subagent.completed": subagentCompletedSchema,
} as const satisfies EventSchemas;

/**
 * Event types that are *transient*: published while an effect runs, never
 * journaled, `meta.seq` 0 and `meta.transient: true`, outside the actor's
 * gapless event sequence. They are kept in the deltas stream (`<P>_DELTAS`,
 * short retention, default 1 h) instead of the durable events stream; see
 * `DELTA_STREAM_SUBJECTS` and `eventStreamSubjects` (issue #11).
 */
export const transientEventTypes: readonly EventType[] = ["run.delta"];

/**
 * Whether events of `eventType` are transient (see {@link transientEventTypes}).
 *
 * @param eventType - e.g. `"run.delta"` (`true`) or `"run.completed"` (`false`).
 */
export function isTransientEventType(eventType: string): boolean {
  return (transientEventTypes as readonly string[]).includes(eventType);
}

/** Type of {@link builtinEventSchemas}. */
export type BuiltinEventSchemas = typeof builtinEventSchemas;

/** An event type this version defines. */
export type EventType = keyof BuiltinEventSchemas;
