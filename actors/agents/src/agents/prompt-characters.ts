import type { ModelMessage } from "ai";
import type { ModelPrompt } from "./build-model-prompt.js";

/**
 * Tokens one image or file part is counted as by the input estimate, whatever
 * its size: 1,600, the most Anthropic bills for one image after resizing
 * (about 1.15 megapixels, https://docs.anthropic.com/en/docs/build-with-claude/vision#evaluate-image-size);
 * OpenAI's high-detail images cost at most about 1,100 and Gemini's 258
 * (https://ai.google.dev/gemini-api/docs/tokens#multimodal-tokens).
 */
export const MEDIA_PART_TOKENS = 1_600;

/** Characters one media part stands for: {@link MEDIA_PART_TOKENS} at 4 characters per token. */
const MEDIA_PART_CHARACTERS = MEDIA_PART_TOKENS * 4;

/**
 * Characters of a prompt for the input-token estimate of a spend reservation
 * (issue #19), counted without serialising it: the text of every text,
 * reasoning and tool part, the JSON of tool-call inputs and of JSON tool
 * outputs, and {@link MEDIA_PART_CHARACTERS} for each image or file part, never
 * its bytes (issue #31: `JSON.stringify` of a prompt with a 20 MiB image wrote
 * every byte as a number and held the host's event loop for seconds).
 *
 * @param prompt - instructions and messages as `buildModelPrompt` makes them.
 * @returns characters, ≥ 0.
 */
export function promptCharacters(prompt: ModelPrompt): number {
  let total = prompt.instructions.length;
  for (const message of prompt.messages) total += messageCharacters(message);
  return total;
}

function messageCharacters(message: ModelMessage): number {
  if (typeof message.content === "string") return message.content.length;
  let total = 0;
  for (const part of message.content) {
    switch (part.type) {
      case "text":
      case "reasoning":
        total += part.text.length;
        break;
      case "image":
      case "file":
        total += MEDIA_PART_CHARACTERS;
        break;
      case "tool-call":
        total += part.toolName.length + jsonCharacters(part.input);
        break;
      case "tool-result":
        total += part.toolName.length + outputCharacters(part.output);
        break;
      default:
        total += jsonCharacters(part);
    }
  }
  return total;
}

type ToolOutput = Extract<
  Exclude<ModelMessage["content"], string>[number],
  { type: "tool-result" }
>["output"];

function outputCharacters(output: ToolOutput): number {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value.length;
    case "content": {
      let total = 0;
      for (const item of output.value) {
        total += item.type === "text" ? item.text.length : MEDIA_PART_CHARACTERS;
      }
      return total;
    }
    default:
      return jsonCharacters(output);
  }
}

/** Characters of a small value's JSON (inputs and JSON outputs hold no bytes). */
function jsonCharacters(value: unknown): number {
  return (JSON.stringify(value) as string | undefined)?.length ?? 0;
}
