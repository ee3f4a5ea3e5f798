import { DeliverPolicy, type JetStreamClient, type JsMsg } from "@nats-io/jetstream";
import { decodeTranscriptEntry, transcriptSubject, type TranscriptEntry } from "@troupe/protocol";

/**
 * Reads a session's transcript (`_troupe.transcript.<sessionId>` in the
 * deployment's transcript stream), in entry order, each entry once (the
 * `troupe://sessions/{sessionId}/transcript` resource of `troupe mcp`).
 *
 * @param js - JetStream client of the deployment.
 * @param stream - the transcript stream (`streamNames(prefix).transcript`).
 * @param sessionId - the session (a valid session id).
 * @returns the entries stored now; `[]` for a session without any.
 * @throws nats.js errors when the stream does not exist or NATS does not answer.
 */
export async function readSessionTranscript(
  js: JetStreamClient,
  stream: string,
  sessionId: string,
): Promise<TranscriptEntry[]> {
  const consumer = await js.consumers.get(stream, {
    filter_subjects: transcriptSubject(sessionId),
    deliver_policy: DeliverPolicy.All,
  });
  const info = await consumer.info();
  if (info.num_pending === 0) return [];
  const byIndex = new Map<number, TranscriptEntry>();
  const messages = await consumer.consume();
  try {
    for await (const message of messages as AsyncIterable<JsMsg>) {
      const stored = decodeTranscriptEntry(message.data);
      if (stored !== undefined && !byIndex.has(stored.index))
        byIndex.set(stored.index, stored.entry);
      if (message.info.pending === 0) break;
    }
  } finally {
    await messages.close().catch(() => undefined);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
}

/**
 * A transcript as Markdown for an MCP client: one section per entry, `user`,
 * `assistant` (with the tool calls it asked for) and `tool` (status and result).
 *
 * @param sessionId - the session, for the title.
 * @param entries - the transcript entries, in order.
 */
export function formatTranscript(sessionId: string, entries: readonly TranscriptEntry[]): string {
  const lines = [`# Session ${sessionId}`, ""];
  if (entries.length === 0) lines.push("(no messages yet)", "");
  for (const entry of entries) {
    if (entry.role === "user") {
      lines.push("**user**", "", entry.text, "");
    } else if (entry.role === "assistant") {
      lines.push(`**assistant** (run ${entry.runId})`, "");
      if (entry.text !== "") lines.push(entry.text, "");
      for (const call of entry.toolCalls ?? []) {
        lines.push(`- calls \`${call.toolName}\` ${call.input} (${call.toolCallId})`);
      }
      if ((entry.toolCalls ?? []).length > 0) lines.push("");
    } else if (entry.role === "summary") {
      // A compaction summary: the entries before `through` stay above it.
      lines.push(`**summary** (of entries 0–${entry.through - 1})`, "", entry.text, "");
    } else {
      lines.push(`**tool** \`${entry.toolName}\` (${entry.toolCallId}): ${entry.status}`, "");
      lines.push(entry.content, "");
    }
  }
  return lines.join("\n");
}
