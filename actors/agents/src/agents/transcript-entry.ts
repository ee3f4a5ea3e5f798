/**
 * Transcript entries as the model-call handler reads them: the protocol's
 * transcript entry types (`@troupe/protocol`, `transcript-entry.ts`), re-exported
 * under the names the agents code uses.
 */
import type {
  TranscriptEntry as ProtocolTranscriptEntry,
  TranscriptToolCall as ProtocolTranscriptToolCall,
} from "@troupe/protocol";

/** One entry of a session's transcript (user, assistant or tool result). */
export type TranscriptEntry = ProtocolTranscriptEntry;
/** A user message in the transcript. */
export type UserTranscriptEntry = Extract<TranscriptEntry, { role: "user" }>;
/** An assistant answer, with the tool calls it made. */
export type AssistantTranscriptEntry = Extract<TranscriptEntry, { role: "assistant" }>;
/** The result of one tool call. */
export type ToolTranscriptEntry = Extract<TranscriptEntry, { role: "tool" }>;
/** A tool call inside an assistant entry. */
export type TranscriptToolCall = ProtocolTranscriptToolCall;
