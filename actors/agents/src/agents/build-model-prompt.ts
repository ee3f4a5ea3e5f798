import type { ModelMessage, ToolResultPart } from "ai";
import type { AgentDefinition } from "./agent-definition.js";
import { missingToolResultPart, toolCallPart, toolResultPart } from "./tool-messages.js";
import type {
  AssistantTranscriptEntry,
  TranscriptEntry,
  TranscriptToolCall,
  UserTranscriptEntry,
} from "./transcript-entry.js";
import type { PromptMedia } from "@troupe/tools/internal";

/** What `streamText` gets as the prompt: `instructions` and `messages`. */
export interface ModelPrompt {
  /** The agent's instructions (the AI SDK sends them as the system message). */
  readonly instructions: string;
  /** The transcript as user, assistant and tool messages, in order. */
  readonly messages: ModelMessage[];
}

/**
 * Builds the prompt of a model call from the agent and the transcript: the
 * agent's instructions, then the entries in transcript order —
 *
 * - `user` → a user message;
 * - `assistant` → an assistant message with a text part (when not empty) and a
 *   `tool-call` part per tool call;
 * - `tool` → a `tool-result` part; the results of one assistant message form
 *   one tool message right after it.
 *
 * So that every provider accepts the request: entries with nothing to say (an
 * empty answer without tool calls, an empty user text) and roles this version
 * does not know are left out; a result whose call is not in the assistant
 * message before it is left out; a call without a result gets an error result
 * (`MISSING_TOOL_RESULT_TEXT`) before the next turn; a user message that
 * arrived while calls were waiting for results comes after those results.
 *
 * @param agent - the agent answering.
 * @param entries - transcript entries `0 … n − 1`, in order.
 * @param media - how attachments and tool media are shown (`loadPromptMedia`);
 *   absent: entries are shown as text only.
 * @returns the instructions and messages for `streamText`.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message — message and part shapes
 * @example
 * buildModelPrompt(agent, [{ role: "user", text: "hi", messageId: "m1" }]);
 * // { instructions: agent.instructions, messages: [{ role: "user", content: "hi" }] }
 */
export function buildModelPrompt(
  agent: AgentDefinition,
  entries: readonly TranscriptEntry[],
  media?: PromptMedia,
): ModelPrompt {
  const messages: ModelMessage[] = [];
  const reuse = entries.length >= REUSE_MESSAGES_FROM_ENTRIES;
  /** Calls of the latest assistant message still waiting for a result, by id. */
  const pending = new Map<string, TranscriptToolCall>();
  let results: ToolResultPart[] = [];
  let deferred: ModelMessage[] = [];

  const settle = () => {
    for (const call of pending.values()) results.push(missingToolResultPart(call));
    pending.clear();
    if (results.length > 0) messages.push({ role: "tool", content: results });
    messages.push(...deferred);
    results = [];
    deferred = [];
  };

  for (const entry of entries) {
    if (entry.role === "user") {
      const content = media?.userContent(entry);
      if ((content ?? entry.text).length === 0) continue;
      const message: ModelMessage =
        content === undefined ? plainMessage(entry, "user", reuse) : { role: "user", content };
      if (pending.size > 0) deferred.push(message);
      else messages.push(message);
    } else if (entry.role === "assistant") {
      settle();
      const calls = uniqueCalls(entry.toolCalls ?? []);
      if (calls.length === 0) {
        if (entry.text.length > 0) messages.push(plainMessage(entry, "assistant", reuse));
        continue;
      }
      messages.push({
        role: "assistant",
        content: [
          ...(entry.text.length > 0 ? [{ type: "text" as const, text: entry.text }] : []),
          ...calls.map(toolCallPart),
        ],
      });
      for (const call of calls) pending.set(call.toolCallId, call);
    } else if (entry.role === "tool") {
      if (!pending.delete(entry.toolCallId)) continue;
      const output = media?.toolOutput(entry);
      results.push({ ...toolResultPart(entry), ...(output === undefined ? {} : { output }) });
      if (pending.size === 0) settle();
    }
  }
  settle();
  return { instructions: agent.instructions, messages };
}

/** The calls with distinct ids, first occurrence kept. */
/**
 * Prompts of at least this many entries reuse their plain messages (see
 * {@link plainMessage}); a shorter prompt costs little to build and estimate
 * again, and a reused message is kept as long as its entry (about 100 bytes),
 * which a host holding thousands of short sessions would pay for nothing.
 */
export const REUSE_MESSAGES_FROM_ENTRIES = 16;

/**
 * The message of a user entry without media or an assistant entry without
 * tool calls: its text alone. With `reuse`, made once per entry and handed out
 * in every later call (docs/decisions/0051): a long session's prompt reuses its messages,
 * and what is computed per message (the token estimate of a spend
 * reservation) is computed once. A reused message is frozen, as it is shared.
 */
function plainMessage(
  entry: UserTranscriptEntry | AssistantTranscriptEntry,
  role: "user" | "assistant",
  reuse: boolean,
): ModelMessage {
  if (!reuse) return { role, content: entry.text };
  const known = plainMessages.get(entry);
  if (known !== undefined) return known;
  const message: ModelMessage = Object.freeze({ role, content: entry.text });
  plainMessages.set(entry, message);
  return message;
}

const plainMessages = new WeakMap<UserTranscriptEntry | AssistantTranscriptEntry, ModelMessage>();

function uniqueCalls(calls: readonly TranscriptToolCall[]): TranscriptToolCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => !seen.has(call.toolCallId) && seen.add(call.toolCallId));
}
