import type { ModelMessage } from "ai";
import type { AgentDefinition } from "./define-agent.js";
import type { TranscriptEntry } from "./transcript-entry.js";

/** What `streamText` gets as the prompt: `instructions` and `messages`. */
export interface ModelPrompt {
  /** The agent's instructions (the AI SDK sends them as the system message). */
  readonly instructions: string;
  /** The transcript as user and assistant messages, in order. */
  readonly messages: ModelMessage[];
}

/**
 * Builds the prompt of a model call from the agent and the transcript: the
 * agent's instructions, then each entry as a `user` or `assistant` message in
 * transcript order. Entries with empty text (a run cancelled before its first
 * token) and entries of roles this version does not know are left out, so the
 * request stays valid for every provider.
 *
 * @param agent - the agent answering.
 * @param entries - transcript entries `0 … n − 1`, in order.
 * @returns the instructions and messages for `streamText`.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/stream-text — `instructions`, `messages`
 * @example
 * buildModelPrompt(agent, [{ role: "user", text: "hi", messageId: "m1" }]);
 * // { instructions: agent.instructions, messages: [{ role: "user", content: "hi" }] }
 */
export function buildModelPrompt(
  agent: AgentDefinition,
  entries: readonly TranscriptEntry[],
): ModelPrompt {
  const messages: ModelMessage[] = [];
  for (const entry of entries) {
    if (entry.text.length === 0) continue;
    if (entry.role === "user") messages.push({ role: "user", content: entry.text });
    else if (entry.role === "assistant") messages.push({ role: "assistant", content: entry.text });
  }
  return { instructions: agent.instructions, messages };
}
