/**
 * A user turn of a session's transcript: the text of an admitted message and
 * the id of the message that carried it.
 *
 * Shape: `{ role: "user", text: string, messageId: string }`.
 */
export interface UserTranscriptEntry {
  readonly role: "user";
  readonly text: string;
  readonly messageId: string;
}

/**
 * An assistant turn: the answer of run `runId` (partial when the run was
 * cancelled; possibly empty).
 *
 * Shape: `{ role: "assistant", text: string, runId: string }`.
 */
export interface AssistantTranscriptEntry {
  readonly role: "assistant";
  readonly text: string;
  readonly runId: string;
}

/**
 * One entry of a session's transcript as the model-call handler reads it. The
 * same shape as `transcriptEntrySchema` of `@troupe/protocol` v1; roles are only
 * ever added, so readers skip a role they do not know.
 */
export type TranscriptEntry = UserTranscriptEntry | AssistantTranscriptEntry;
