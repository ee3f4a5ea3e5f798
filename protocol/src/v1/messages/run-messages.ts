import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";
import { toolPolicyOverridesSchema } from "../tool-policy.js";
import { transcriptBaseSchema } from "../fork/transcript-base.js";
import { priorityClassSchema } from "../priority-class.js";

/** A length of the session transcript, in entries: a whole number, 0 or more. */
const transcriptLengthSchema = z.number().int().nonnegative();

/**
 * `run.start` — internal, session → run actor (`run/<sessionId>`): start run
 * `runId` with the settings in force. The session has already appended the user
 * message to the transcript, so `transcriptLength` counts it. `toolPolicy` holds
 * the session's tool policy overrides (patterns to ask for or deny on top of
 * the agent's policy). `parentSessionId` is set for the run of a subagent's
 * session: the session that delegated to it (its events go on that session's
 * subjects); `parentRunId` the delegating run of that session (its `run` spend
 * budget counts the subagent's model calls; absent for a subagent
 * session created before the field existed).
 *
 * Shape: `{ runId: string, sessionId: string, agent?: string, model?: string, maxModelCalls: number (whole, 1+), transcriptLength: number (whole, 0+), toolPolicy?: ToolPolicyOverrides, parentSessionId?: string, parentRunId?: string, transcriptBase?: TranscriptBase, priority?: PriorityClass }`.
 * `priority`: the scheduling class of the message that started the run
 * (docs/decisions/0057); absent = `default`.
 */
export const runStartSchema = z.object({
  runId: identifierSchema,
  sessionId: actorIdSchema,
  agent: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  maxModelCalls: z.number().int().min(1),
  transcriptLength: transcriptLengthSchema,
  toolPolicy: toolPolicyOverridesSchema.optional(),
  parentSessionId: actorIdSchema.optional(),
  /** The delegating run of `parentSessionId` (docs/decisions/0041); absent = none known. */
  parentRunId: identifierSchema.optional(),
  /** A forked session's shared transcript prefix (docs/decisions/0043); absent = no fork. */
  transcriptBase: transcriptBaseSchema.optional(),
  priority: priorityClassSchema.optional(),
});
/** Payload of `run.start`. */
export type RunStart = z.infer<typeof runStartSchema>;

/** How a run ended: `completed` (an answer), `failed` or `cancelled`. */
export const runOutcomeSchema = z.enum(["completed", "failed", "cancelled"]);
/** See {@link runOutcomeSchema}. */
export type RunOutcome = z.infer<typeof runOutcomeSchema>;

/**
 * `run.finished` — internal, run actor → session (`session/<sessionId>`): run
 * `runId` ended; the transcript now has `transcriptLength` entries.
 * `steersApplied` counts the `run.steer` texts of this run that reached the
 * transcript (in the order they were sent); the session runs the others as
 * ordinary messages, so no steer is lost. A subagent's run (one started
 * with `parentSessionId`) adds `text`: its answer
 * (`completed`), its partial answer (`cancelled`) or why it failed (`failed`).
 *
 * Shape: `{ runId: string, outcome: RunOutcome, transcriptLength: number (whole, 0+), steersApplied: number (whole, 0+), text?: string }`.
 */
export const runFinishedSchema = z.object({
  runId: identifierSchema,
  outcome: runOutcomeSchema,
  transcriptLength: transcriptLengthSchema,
  steersApplied: z.number().int().nonnegative(),
  text: z.string().optional(),
});

/**
 * `subagent.finished` — internal, a subagent's session → the tool call actor
 * that delegated to it (`tool/<toolActorId>`): the subagent's run ended;
 * `text` is its answer (or why it failed, or its partial answer).
 *
 * Shape: `{ sessionId: string, runId: string, outcome: RunOutcome, text: string }`.
 */
export const subagentFinishedSchema = z.object({
  sessionId: actorIdSchema,
  runId: identifierSchema,
  outcome: runOutcomeSchema,
  text: z.string(),
});
/** Payload of `subagent.finished`. */
export type SubagentFinished = z.infer<typeof subagentFinishedSchema>;
/** Payload of `run.finished`. */
export type RunFinished = z.infer<typeof runFinishedSchema>;
