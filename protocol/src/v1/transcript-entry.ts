import { z } from "zod";
import { identifierSchema } from "./field-schemas.js";
import { toolCallStatusSchema } from "./tool-call-status.js";
import { mediaRefSchema } from "./media-ref.js";
import { summaryTranscriptEntrySchema } from "./compaction/summary-entry.js";

/**
 * A user turn in the transcript: the text of an admitted `user.message` (or of a
 * `run.steer`), with the id of the message that carried it.
 *
 * Shape: `{ role: "user", text: string, messageId: string, attachments?: MediaRef[] }`;
 * `attachments` are the message's media references (docs/decisions/0045), the bytes
 * stay in the media Object Store.
 */
export const userTranscriptEntrySchema = z.object({
  role: z.literal("user"),
  text: z.string(),
  messageId: identifierSchema,
  attachments: z.array(mediaRefSchema).optional(),
});

/**
 * A tool call the model asked for, as its assistant entry records it: the
 * model's id of the call, the tool's name and the raw arguments text the model
 * produced (not parsed: what the model wrote is what it reads back).
 *
 * Shape: `{ toolCallId: string, toolName: string, input: string }`.
 */
export const transcriptToolCallSchema = z.object({
  toolCallId: identifierSchema,
  toolName: z.string().min(1),
  input: z.string(),
});
/** See {@link transcriptToolCallSchema}. */
export type TranscriptToolCall = z.infer<typeof transcriptToolCallSchema>;

/**
 * An assistant turn in the transcript: the text a model call produced in run
 * `runId` (a partial answer when the run was cancelled), and the tool calls it
 * asked for, if any, in the model's order. Each tool call is answered by one
 * `tool` entry after it (see {@link toolTranscriptEntrySchema}).
 *
 * Shape: `{ role: "assistant", text: string, runId: string, toolCalls?: TranscriptToolCall[] }`.
 */
export const assistantTranscriptEntrySchema = z.object({
  role: z.literal("assistant"),
  text: z.string(),
  runId: identifierSchema,
  toolCalls: z.array(transcriptToolCallSchema).optional(),
});

/**
 * The result of one tool call, as the model reads it: `content` is the tool's
 * output as text (or why it did not run or failed), `status` how the call
 * ended. The run appends one such entry per tool call of an assistant entry,
 * in the model's order, once every call of that response has a result — so
 * the transcript never holds a tool call without its result.
 *
 * Shape: `{ role: "tool", runId: string, toolCallId: string, toolName: string, status: ToolCallStatus, content: string, media?: MediaRef[] }`;
 * `media` references images or files the tool returned (docs/decisions/0045).
 */
export const toolTranscriptEntrySchema = z.object({
  role: z.literal("tool"),
  runId: identifierSchema,
  toolCallId: identifierSchema,
  toolName: z.string().min(1),
  status: toolCallStatusSchema,
  content: z.string(),
  media: z.array(mediaRefSchema).optional(),
});

/**
 * One entry of a session's transcript. The transcript is an append-only log kept
 * outside machine snapshots (entry `i` is published once, with the dedup id
 * `<sessionId>:transcript:<i>`), so processing a message costs the same whatever
 * the length of the conversation. Roles are only added: this schema refuses a
 * role it does not know, so a reader should skip such an entry (check `role`
 * first) rather than fail.
 *
 * Shape: `{ role: "user", text, messageId } | { role: "assistant", text, runId, toolCalls? } | { role: "tool", runId, toolCallId, toolName, status, content }`
 * | `{ role: "summary", text, through, tokensBefore, tokensAfter, runId?, model? }`
 * (see `summaryTranscriptEntrySchema`).
 */
export const transcriptEntrySchema = z.discriminatedUnion("role", [
  userTranscriptEntrySchema,
  assistantTranscriptEntrySchema,
  toolTranscriptEntrySchema,
  summaryTranscriptEntrySchema,
]);
/** See {@link transcriptEntrySchema}. */
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;
