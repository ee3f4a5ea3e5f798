import { z } from "zod";
import { identifierSchema } from "../field-schemas.js";
import { sessionSettingsSchema } from "../messages/session-commands.js";

/**
 * What a session did with a command ("every command gets a verdict"):
 * - `applied`: the command took effect (a cancel sent to the active run, a
 *   steer handed to it, an approval that settled the call, a configure applied,
 *   a close begun);
 * - `already_settled`: its target was decided before (a second approve or deny,
 *   an answer to a question answered already, a close of a closed session);
 * - `nothing_to_act_on`: the target exists but there is nothing to do (cancel
 *   on an idle session, approve of a call that did not ask for approval);
 * - `unknown_id`: it names a tool call or question the session never had.
 */
export const commandVerdictSchema = z.enum([
  "applied",
  "already_settled",
  "nothing_to_act_on",
  "unknown_id",
]);
/** See {@link commandVerdictSchema}. */
export type CommandVerdict = z.infer<typeof commandVerdictSchema>;

/**
 * `command.settled` — the verdict on one command (`run.cancel`, `run.steer`,
 * `tool.approve`, `tool.deny`, `question.answer`, `session.configure`,
 * `session.close`). Every command gets exactly one verdict: this event, or
 * `message.rejected` when it was refused (invalid, closed session, …). A client
 * matches it to its command by `commandId`, never by the call id it names, so
 * of two racing commands each learns its own fate.
 *
 * Shape: `{ commandId: string, command: string, verdict: CommandVerdict, reason?: string, runId?: string, toolCallId?: string, questionId?: string, decision?: "approved" | "denied" | "timed_out", settings?: SessionSettings }`.
 * - `commandId`: envelope id of the command as the client published it (a
 *   command forwarded by the session to a tool call or a subagent's session
 *   keeps it); equals `meta.causationId` when the session answers at once.
 * - `command`: the command's message type.
 * - `reason`: a sentence for humans when the verdict is not `applied`.
 * - `runId` / `toolCallId` / `questionId`: what the command acted on, when known.
 * - `decision`: for `tool.approve` / `tool.deny`, the decision the call now has
 *   (its own when `applied`, the first one when `already_settled`).
 * - `settings`: for an applied `session.configure`, the settings the session
 *   now runs with beyond its agent's defaults (`SessionSettings`, accumulated
 *   over its configures and what it forked with); a fork of the session starts
 *   with those of its fork point (docs/capabilities/fork.md).
 *
 * For a session or tool call that does not exist, the event is published
 * without creating the actor: `meta.transient` is set and `meta.seq` is 0.
 */
export const commandSettledSchema = z.object({
  commandId: identifierSchema,
  command: z.string().min(1),
  verdict: commandVerdictSchema,
  reason: z.string().optional(),
  runId: identifierSchema.optional(),
  toolCallId: identifierSchema.optional(),
  questionId: identifierSchema.optional(),
  decision: z.enum(["approved", "denied", "timed_out"]).optional(),
  settings: sessionSettingsSchema.optional(),
});
/** Payload of `command.settled`. */
export type CommandSettled = z.infer<typeof commandSettledSchema>;
