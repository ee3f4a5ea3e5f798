import { z } from "zod";
import { identifierSchema } from "./field-schemas.js";

/**
 * A user turn in the transcript: the text of an admitted `user.message` (or of a
 * `run.steer`), with the id of the message that carried it.
 *
 * Shape: `{ role: "user", text: string, messageId: string }`.
 */
export const userTranscriptEntrySchema = z.object({
  role: z.literal("user"),
  text: z.string(),
  messageId: identifierSchema,
});

/**
 * An assistant turn in the transcript: the text a model call produced in run
 * `runId` (a partial answer when the run was cancelled).
 *
 * Shape: `{ role: "assistant", text: string, runId: string }`.
 */
export const assistantTranscriptEntrySchema = z.object({
  role: z.literal("assistant"),
  text: z.string(),
  runId: identifierSchema,
});

/**
 * One entry of a session's transcript. The transcript is an append-only log kept
 * outside machine snapshots (entry `i` is published once, with the dedup id
 * `<sessionId>:transcript:<i>`), so processing a message costs the same whatever
 * the length of the conversation. Roles are only added (tool entries come with
 * tool calls): this schema refuses a role it does not know, so a reader should
 * skip such an entry (check `role` first) rather than fail.
 *
 * Shape: `{ role: "user", text, messageId } | { role: "assistant", text, runId }`.
 */
export const transcriptEntrySchema = z.discriminatedUnion("role", [
  userTranscriptEntrySchema,
  assistantTranscriptEntrySchema,
]);
/** See {@link transcriptEntrySchema}. */
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;
