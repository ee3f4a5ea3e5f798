import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";
import { sessionSettingsSchema } from "../messages/session-commands.js";
import { transcriptBaseSchema } from "./transcript-base.js";

/**
 * `session.fork` — public command to a NEW session (`troupe.session.<newId>.in`):
 * become a fork of session `from`, sharing its transcript up to a point (not
 * copied), with its own future. The point: `atRunId` (the transcript as run
 * `r<n>` of `from` left it), `atSequence` (an events-stream sequence, the
 * number `troupe tail --sequence` shows: the transcript as the last run of
 * `from` that ended at or before it left it), or neither (the last run of
 * `from` that ended; a run in progress is not included). At most one of the two.
 *
 * The session answers with `session.created` (`forkedFrom`), `session.forked`
 * and `command.settled` (`applied`), or `message.rejected` with code
 * `session_exists` (the target already has a history or is a fork of another
 * point), `unknown_session` (`from` has no history), `fork_point_out_of_range`
 * (no such run, or a sequence outside `from`'s events), `fork_too_deep`, or
 * `invalid_fork` (`from` is the target itself). Sending the same fork again
 * (same `from` and point) is settled `applied` again and changes nothing.
 *
 * Shape: `{ from: string, atSequence?: number (whole, 1+), atRunId?: string }`;
 * any other field is refused. See docs/capabilities/fork.md.
 */
export const sessionForkSchema = z
  .strictObject({
    from: actorIdSchema,
    atSequence: z.number().int().min(1).optional(),
    atRunId: identifierSchema.optional(),
  })
  .refine((fork) => fork.atSequence === undefined || fork.atRunId === undefined, {
    message: "give atSequence or atRunId, not both",
    path: ["atRunId"],
  });
/** Payload of `session.fork`. */
export type SessionFork = z.infer<typeof sessionForkSchema>;

/**
 * `session.forked` — the session became a fork of `from`: it shares entries
 * `0 … transcriptLength − 1` of the transcript through `transcriptBase` (read
 * from the sessions named there, not copied); its own entries follow at
 * `transcriptLength`. `runId` is the last run of `from` included (absent when
 * none had ended); `atSequence` / `atRunId` repeat the point asked for.
 * `settings` are the source's `session.configure` settings at the fork point,
 * which the fork took on (absent when it had none).
 *
 * Shape: `{ sessionId, from, transcriptLength: number (entries, 0+),
 * transcriptBase: TranscriptSegment[], runId?, atSequence?, atRunId?, agent?,
 * settings?: SessionSettings }`.
 */
export const sessionForkedSchema = z.object({
  sessionId: actorIdSchema,
  from: actorIdSchema,
  transcriptLength: z.number().int().nonnegative(),
  transcriptBase: transcriptBaseSchema,
  runId: identifierSchema.optional(),
  atSequence: z.number().int().min(1).optional(),
  atRunId: identifierSchema.optional(),
  agent: z.string().min(1).optional(),
  settings: sessionSettingsSchema.optional(),
});
/** Payload of `session.forked`. */
export type SessionForked = z.infer<typeof sessionForkedSchema>;
