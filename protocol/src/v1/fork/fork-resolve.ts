import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { nullAsAbsent } from "../effects/null-as-absent.js";
import { identifierSchema } from "../field-schemas.js";
import { sessionPolicySchema, sessionSettingsSchema } from "../messages/session-commands.js";
import { transcriptBaseSchema } from "./transcript-base.js";

/**
 * Name of the effect that finds a fork point: requested by the session machine
 * of the NEW session on `session.fork`, handled by the agent host
 * (`@troupe/agents`), which reads the source session's stored events (its
 * `session.created`, `session.forked` and run end events). Its result is
 * journaled, so the fork replays without reading anything (docs/decisions/0043).
 */
export const FORK_RESOLVE_EFFECT = "fork.resolve";

/**
 * Input of `fork.resolve`: the source session and the point (see `session.fork`).
 *
 * Shape: `{ from: string, atSequence?: number (whole, 1+), atRunId?: string }`.
 */
export const forkResolveInputSchema = nullAsAbsent(
  z.object({
    from: actorIdSchema,
    atSequence: z.number().int().min(1).optional(),
    atRunId: identifierSchema.optional(),
  }),
);
/** See {@link forkResolveInputSchema}. */
export type ForkResolveInput = z.infer<typeof forkResolveInputSchema>;

/**
 * Output of `fork.resolve`: the shared prefix and the settings the fork starts
 * with (the source's agent and that agent's defaults, and `settings`: what the
 * source's `session.configure`s had set at the fork point, if anything). Failures arrive as
 * `effect.failed` with code `unknown_session`, `fork_point_out_of_range`,
 * `fork_too_deep` or `unknown_agent`.
 *
 * Shape: `{ transcriptLength: number (entries, 0+), transcriptBase:
 * TranscriptSegment[], runId?, agent?, policy, maxModelCalls (whole, 1+),
 * settings?: SessionSettings }`.
 */
export const forkResolveOutputSchema = nullAsAbsent(
  z.object({
    transcriptLength: z.number().int().nonnegative(),
    transcriptBase: transcriptBaseSchema,
    /** The last run of the source included in the prefix. */
    runId: identifierSchema.optional(),
    /** The source's agent (absent = the host's default agent). */
    agent: z.string().min(1).optional(),
    policy: sessionPolicySchema,
    maxModelCalls: z.number().int().min(1),
    settings: sessionSettingsSchema.optional(),
  }),
);
/** See {@link forkResolveOutputSchema}. */
export type ForkResolveOutput = z.infer<typeof forkResolveOutputSchema>;

/** Codes of the errors a fork is refused with (`message.rejected` `code`). */
export const FORK_ERROR_CODES = {
  /** The target session already has a history, or is a fork of another point. */
  sessionExists: "session_exists",
  /** The source session has no stored history. */
  unknownSession: "unknown_session",
  /** No such run of the source, or a sequence outside its stored events. */
  outOfRange: "fork_point_out_of_range",
  /** The fork would need more than `MAX_TRANSCRIPT_BASE_SEGMENTS` segments. */
  tooDeep: "fork_too_deep",
  /** The source is the target itself. */
  invalidFork: "invalid_fork",
} as const;
