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
 * A tool call as the transcript keeps it: the model's id for it, the tool's
 * name and the arguments exactly as the model wrote them (JSON text, possibly
 * empty or invalid).
 *
 * Shape: `{ toolCallId: string, toolName: string, input: string }`.
 */
export interface TranscriptToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

/**
 * An assistant turn: the answer of run `runId` (partial when the run was
 * cancelled; possibly empty), with the tool calls the model asked for in it.
 *
 * Shape: `{ role: "assistant", text: string, runId: string, toolCalls?: TranscriptToolCall[] }`.
 */
export interface AssistantTranscriptEntry {
  readonly role: "assistant";
  readonly text: string;
  readonly runId: string;
  readonly toolCalls?: readonly TranscriptToolCall[];
}

/**
 * The result of one tool call, as the model is told: `status` is a
 * `tool.execute` status (`succeeded`, `failed`, `invalid_arguments`,
 * `outcome_unknown`) or a later one (a denial, a skipped write); anything but
 * `succeeded` reaches the model as an error result. `content` is the text the
 * model reads.
 *
 * Shape: `{ role: "tool", runId, toolCallId, toolName, status: string, content: string }`.
 */
export interface ToolTranscriptEntry {
  readonly role: "tool";
  readonly runId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly status: string;
  readonly content: string;
}

/**
 * One entry of a session's transcript as the model-call handler reads it. The
 * same shape as `transcriptEntrySchema` of `@troupe/protocol` v1 (tool calls and
 * tool entries come with issue #5); roles are only ever added, so readers skip
 * a role they do not know.
 */
export type TranscriptEntry = UserTranscriptEntry | AssistantTranscriptEntry | ToolTranscriptEntry;
