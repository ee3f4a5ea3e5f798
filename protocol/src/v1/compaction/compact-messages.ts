import { z } from "zod";

/**
 * `session.compact` — compact the session's transcript now (`troupe compact
 * <sessionId>`, docs/capabilities/compaction.md): the session's next model
 * call — in the active run, or the first of the next run when the session is
 * idle — first summarises the older entries, whatever the token budget. The
 * session answers with `command.settled` (`applied`); the compaction itself
 * is announced by `session.compacted`.
 *
 * Shape: `{}`; any field is refused.
 */
export const sessionCompactSchema = z.strictObject({});
/** Payload of `session.compact`. */
export type SessionCompact = z.infer<typeof sessionCompactSchema>;

/**
 * `run.compact` — session → run actor: the forwarded `session.compact`. The run
 * actor marks its next model call to compact first.
 *
 * Shape: `{}`.
 */
export const runCompactSchema = z.object({});
/** Payload of `run.compact`. */
export type RunCompact = z.infer<typeof runCompactSchema>;
