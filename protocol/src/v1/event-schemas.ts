import { commandSettledSchema } from "./events/command-events.js";
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
import { runModelFallbackSchema } from "./events/run-model-fallback.js";
import {
  sessionClosedSchema,
  sessionCreatedSchema,
  sessionIdleSchema,
} from "./events/session-events.js";
import { sessionCompactedSchema } from "./events/compaction-events.js";
import { subagentCompletedSchema, subagentStartedSchema } from "./events/subagent-events.js";
import { budgetWarningEventSchema } from "./events/budget-events.js";
import {
  toolApprovalRequestedSchema,
  toolApprovalSettledSchema,
  toolCompletedSchema,
  toolFailedSchema,
  toolOutcomeUnknownSchema,
  toolProgressSchema,
  toolStartedSchema,
} from "./events/tool-events.js";
import type { PayloadSchemas } from "./payload-of.js";
import {
  scheduleCancelledSchema,
  scheduleCompletedSchema,
  scheduleCreatedSchema,
  scheduleFiredSchema,
  scheduleRejectedSchema,
  scheduleSkippedSchema,
} from "./events/schedule-events.js";
import { sessionForkedSchema } from "./fork/session-fork.js";

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
  "session.forked": sessionForkedSchema,
  "message.accepted": messageAcceptedSchema,
  "message.duplicate": messageDuplicateSchema,
  "message.rejected": messageRejectedSchema,
  "command.settled": commandSettledSchema,
  "run.started": runStartedSchema,
  "run.delta": runDeltaSchema,
  "run.completed": runCompletedSchema,
  "run.failed": runFailedSchema,
  "run.cancelled": runCancelledSchema,
  "run.model_fallback": runModelFallbackSchema,
  "tool.started": toolStartedSchema,
  "tool.progress": toolProgressSchema,
  "tool.completed": toolCompletedSchema,
  "tool.failed": toolFailedSchema,
  "tool.outcome_unknown": toolOutcomeUnknownSchema,
  "tool.approval_requested": toolApprovalRequestedSchema,
  "tool.approval_settled": toolApprovalSettledSchema,
  "question.asked": questionAskedSchema,
  "question.answered": questionAnsweredSchema,
  "subagent.started": subagentStartedSchema,
  "subagent.completed": subagentCompletedSchema,
  "schedule.created": scheduleCreatedSchema,
  "schedule.fired": scheduleFiredSchema,
  "schedule.skipped": scheduleSkippedSchema,
  "schedule.completed": scheduleCompletedSchema,
  "schedule.cancelled": scheduleCancelledSchema,
  "schedule.rejected": scheduleRejectedSchema,
  "budget.warning": budgetWarningEventSchema,
  "session.compacted": sessionCompactedSchema,
} as const satisfies EventSchemas;

/** Type of {@link builtinEventSchemas}. */
export type BuiltinEventSchemas = typeof builtinEventSchemas;

/** An event type this version defines. */
export type EventType = keyof BuiltinEventSchemas;
