import type { ModelMessage } from "ai";
import type { ModelPrompt } from "./build-model-prompt.js";
import { estimateTextTokens } from "./text-tokens.js";

/**
 * Tokens one image or file part is counted as by the input estimate, whatever
 * its size: 1,600, the most Anthropic bills for one image after resizing
 * (about 1.15 megapixels, https://docs.anthropic.com/en/docs/build-with-claude/vision#evaluate-image-size);
 * OpenAI's high-detail images cost at most about 1,100 and Gemini's 258
 * (https://ai.google.dev/gemini-api/docs/tokens#multimodal-tokens).
 */
export const MEDIA_PART_TOKENS = 1_600;

/**
 * Estimated input tokens of a prompt for a spend reservation (docs/decisions/0041),
 * counted without serialising it: {@link estimateTextTokens} of every text,
 * reasoning and tool part, of the JSON of tool-call inputs and of JSON tool
 * outputs, and {@link MEDIA_PART_TOKENS} for each image or file part, never its
 * bytes (`JSON.stringify` of a prompt with a 20 MiB image wrote
 * every byte as a number and held the host's event loop for seconds).
 *
 * @param prompt - instructions and messages as `buildModelPrompt` makes them.
 * @returns tokens, ≥ 0.
 */
export function estimatePromptTokens(prompt: ModelPrompt): number {
  let total = estimateTextTokens(prompt.instructions);
  for (const message of prompt.messages) {
    // Only shared (frozen) messages are remembered: another is built for one call.
    if (!Object.isFrozen(message)) {
      total += messageTokens(message);
      continue;
    }
    let tokens = estimatedMessages.get(message);
    if (tokens === undefined) {
      tokens = messageTokens(message);
      estimatedMessages.set(message, tokens);
    }
    total += tokens;
  }
  return total;
}

/**
 * Tokens of shared messages already estimated: `buildModelPrompt` hands out
 * the same frozen message object for an entry of a long prompt in every call
 * (docs/decisions/0051), so a long session's estimate costs a lookup per message, not a
 * scan of its text.
 */
const estimatedMessages = new WeakMap<ModelMessage, number>();

function messageTokens(message: ModelMessage): number {
  if (typeof message.content === "string") return estimateTextTokens(message.content);
  let total = 0;
  for (const part of message.content) {
    switch (part.type) {
      case "text":
      case "reasoning":
        total += estimateTextTokens(part.text);
        break;
      case "image":
      case "file":
        total += MEDIA_PART_TOKENS;
        break;
      case "tool-call":
        total += estimateTextTokens(part.toolName) + jsonTokens(part.input);
        break;
      case "tool-result":
        total += estimateTextTokens(part.toolName) + outputTokens(part.output);
        break;
      default:
        total += jsonTokens(part);
    }
  }
  return total;
}

type ToolOutput = Extract<
  Exclude<ModelMessage["content"], string>[number],
  { type: "tool-result" }
>["output"];

function outputTokens(output: ToolOutput): number {
  switch (output.type) {
    case "text":
    case "error-text":
      return estimateTextTokens(output.value);
    case "content": {
      let total = 0;
      for (const item of output.value) {
        total += item.type === "text" ? estimateTextTokens(item.text) : MEDIA_PART_TOKENS;
      }
      return total;
    }
    default:
      return jsonTokens(output);
  }
}

/** Tokens of a small value's JSON (inputs and JSON outputs hold no bytes). */
function jsonTokens(value: unknown): number {
  return estimateTextTokens(JSON.stringify(value) ?? "");
}
