import { createHash } from "node:crypto";
import type { ModelMessage } from "ai";
import type { ModelPrompt } from "./build-model-prompt.js";

/**
 * What a provider accepts as a tool call id, and how long an id made for it
 * is. The transcript keeps every id as the model that made it wrote it; a run
 * that fell back to another provider (docs/decisions/0042) sends those ids to a provider
 * with other rules, which refuses the request with HTTP 400.
 */
export interface ToolCallIdRule {
  /** Ids matching it are sent unchanged. */
  readonly accepts: RegExp;
  /** Length of an id made for an id it does not accept. */
  readonly length: number;
  /** Characters an id made for it may use. */
  readonly alphabet: string;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * The rules by provider id prefix (`LanguageModel.provider`, e.g.
 * `anthropic.messages`, `openai.responses`, `mistral.chat`):
 *
 * | provider              | accepted ids                                   | source |
 * | --------------------- | ---------------------------------------------- | ------ |
 * | `anthropic`           | `^[a-zA-Z0-9_-]{1,64}$`                        | the Messages API's `tool_use.id` pattern |
 * | `mistral`             | `^[a-zA-Z0-9]{9}$`                             | Mistral's 400 "Tool call id … must be a-z, A-Z, 0-9, with a length of 9" (e.g. langchain-ai/langchain#24668) |
 * | `openai` (chat, responses, compatible) | `^[a-zA-Z0-9_-]{1,40}$`       | OpenAI's 400 "Expected a string with maximum length 40" (e.g. agno-agi/agno#5382); the character set is the conservative one |
 *
 * Other providers (Google, the scripted model, …) get ids unchanged.
 */
export const TOOL_CALL_ID_RULES: Readonly<Record<string, ToolCallIdRule>> = {
  anthropic: { accepts: /^[a-zA-Z0-9_-]{1,64}$/, length: 24, alphabet: ALPHANUMERIC },
  mistral: { accepts: /^[a-zA-Z0-9]{9}$/, length: 9, alphabet: ALPHANUMERIC },
  openai: { accepts: /^[a-zA-Z0-9_-]{1,40}$/, length: 24, alphabet: ALPHANUMERIC },
};

/**
 * The tool call id rule of a provider id, by its first dot- or dash-separated
 * part (`openai-compatible.chat` → `openai`); undefined = ids pass unchanged.
 *
 * @param provider - `LanguageModel.provider`.
 */
export function toolCallIdRuleOf(provider: string): ToolCallIdRule | undefined {
  const family = provider.toLowerCase().split(/[.-]/, 1)[0] ?? "";
  return Object.hasOwn(TOOL_CALL_ID_RULES, family) ? TOOL_CALL_ID_RULES[family] : undefined;
}

/**
 * Maps every tool call id of a prompt to one the provider accepts, the same
 * way in an assistant message's `tool-call` part and in the `tool-result` part
 * that answers it, so the pair stays matched. Ids the provider accepts stay
 * as they are; any other id becomes `rule.length` characters of `rule.alphabet`
 * derived from a SHA-256 of the id: deterministic (the same transcript gives the
 * same prompt on any host, for any retry), and distinct within the prompt (on
 * a clash with another id the hash is taken again with a counter). Content
 * shapes are not touched: the prompt stays the AI SDK's provider-neutral
 * `ModelMessage`s. The transcript is not changed either; the model's answer
 * carries ids of its own.
 *
 * @param prompt - the prompt `buildModelPrompt` made.
 * @param provider - the provider id of the model to call (`LanguageModel.provider`).
 * @returns the prompt with mapped ids (the same object when nothing changes).
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message — ToolCallPart, ToolResultPart
 * @example
 * withProviderToolCallIds(prompt, "mistral.chat") // "toolu_01A…" → "k3T9vQx2a" in call and result
 */
export function withProviderToolCallIds(prompt: ModelPrompt, provider: string): ModelPrompt {
  const rule = toolCallIdRuleOf(provider);
  if (rule === undefined) return prompt;
  const ids = toolCallIdsOf(prompt.messages);
  const mapping = mapToolCallIds(ids, rule);
  if ([...mapping].every(([id, mapped]) => id === mapped)) return prompt;
  const map = (id: string) => mapping.get(id) ?? id;
  const messages = prompt.messages.map((message): ModelMessage => {
    if (message.role === "assistant" && typeof message.content !== "string") {
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === "tool-call" || part.type === "tool-result"
            ? { ...part, toolCallId: map(part.toolCallId) }
            : part,
        ),
      };
    }
    if (message.role === "tool") {
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === "tool-result" ? { ...part, toolCallId: map(part.toolCallId) } : part,
        ),
      };
    }
    return message;
  });
  return { ...prompt, messages };
}

/**
 * The id each of `ids` gets under `rule`: accepted ids are kept (and reserved
 * first, so a made id never takes one), the others get a hash-derived id.
 *
 * @param ids - distinct tool call ids, in prompt order.
 * @param rule - the provider's rule.
 * @returns original id → id to send.
 */
export function mapToolCallIds(
  ids: readonly string[],
  rule: ToolCallIdRule,
): ReadonlyMap<string, string> {
  const mapping = new Map<string, string>();
  const taken = new Set<string>();
  for (const id of ids) {
    if (!rule.accepts.test(id)) continue;
    mapping.set(id, id);
    taken.add(id);
  }
  for (const id of ids) {
    if (mapping.has(id)) continue;
    let made = madeId(id, rule, 0);
    for (let round = 1; taken.has(made); round++) made = madeId(id, rule, round);
    mapping.set(id, made);
    taken.add(made);
  }
  return mapping;
}

/** `rule.length` characters of `rule.alphabet` from SHA-256 of the id (and the round, after a clash). */
function madeId(id: string, rule: ToolCallIdRule, round: number): string {
  const digest = createHash("sha256")
    .update(round === 0 ? id : `${id}\u0000${round}`)
    .digest();
  let made = "";
  for (let index = 0; made.length < rule.length; index++) {
    const byte = digest[index % digest.length] ?? 0;
    const next = digest[(index + 1) % digest.length] ?? 0;
    made += rule.alphabet[((byte << 8) | next) % rule.alphabet.length];
  }
  return made;
}

/** The distinct tool call ids of a prompt's tool-call and tool-result parts, in order. */
function toolCallIdsOf(messages: readonly ModelMessage[]): string[] {
  const ids = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) {
      if ("toolCallId" in part && typeof part.toolCallId === "string") ids.add(part.toolCallId);
    }
  }
  return [...ids];
}
