import { TroupeError, type ModelCallOutput } from "@troupe/protocol";

/**
 * Largest model answer a run accepts, in UTF-8 bytes of its text, reasoning and
 * tool calls (JSON) together: 512 KiB (524 288 bytes). The answer travels in a
 * `model.call` effect result, then in a `run.completed` event, a transcript entry
 * and, for a subagent, `run.finished` and the parent's tool result, each limited
 * to the 1 MiB payload limit together with its envelope; half of it leaves room
 * for those (docs/decisions/0009). Far above what providers return in one call.
 */
export const MAX_MODEL_OUTPUT_BYTES = 512 * 1024;

/**
 * Size of a model answer as {@link MAX_MODEL_OUTPUT_BYTES} counts it.
 *
 * @param output - a `model.call` output.
 * @returns UTF-8 bytes of `{ text, reasoning, toolCalls }` as JSON.
 */
export function modelOutputBytes(output: ModelCallOutput): number {
  const { text, reasoning, toolCalls } = output;
  return Buffer.byteLength(JSON.stringify({ text, reasoning, toolCalls }), "utf8");
}

/**
 * Passes a model answer through when it fits {@link MAX_MODEL_OUTPUT_BYTES}.
 *
 * @param output - a `model.call` output.
 * @param maxBytes - the limit in bytes; default {@link MAX_MODEL_OUTPUT_BYTES}.
 * @returns `output` unchanged.
 * @throws TroupeError `payload_too_large` (not retryable; `details.sizeBytes`,
 *   `details.maxBytes`) when it is larger: the run fails with this message
 *   instead of producing messages that cannot be sent.
 */
export function assertModelOutputFits(
  output: ModelCallOutput,
  maxBytes = MAX_MODEL_OUTPUT_BYTES,
): ModelCallOutput {
  const sizeBytes = modelOutputBytes(output);
  if (sizeBytes <= maxBytes) return output;
  throw new TroupeError(
    "payload_too_large",
    `The model's answer is ${sizeBytes} bytes (text, reasoning and tool-call arguments); ` +
      `the limit is ${maxBytes} bytes.`,
    { retryable: false, details: { sizeBytes, maxBytes } },
  );
}
