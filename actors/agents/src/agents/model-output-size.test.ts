import { TroupeError, type ModelCallOutput } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import {
  MAX_MODEL_OUTPUT_BYTES,
  assertModelOutputFits,
  modelOutputBytes,
} from "./model-output-size.js";

const usage = { inputTokens: 1, outputTokens: 1 };

function output(text: string, input = "{}"): ModelCallOutput {
  return {
    text,
    finishReason: "stop",
    usage,
    toolCalls: input === "{}" ? [] : [{ toolCallId: "c1", toolName: "dump", input }],
  } as ModelCallOutput;
}

describe("model output size (issue #11)", () => {
  it("counts text and tool-call arguments in UTF-8 bytes", () => {
    expect(modelOutputBytes(output("é".repeat(10)))).toBe(
      Buffer.byteLength(JSON.stringify({ text: "é".repeat(10), toolCalls: [] })),
    );
    const withArgs = output("", "a".repeat(1000));
    expect(modelOutputBytes(withArgs)).toBeGreaterThan(1000);
  });

  it("passes an answer of the limit and refuses one byte more with payload_too_large, not retryable", () => {
    const overhead = modelOutputBytes(output(""));
    const fits = output("x".repeat(MAX_MODEL_OUTPUT_BYTES - overhead));
    expect(assertModelOutputFits(fits)).toBe(fits);
    let error: unknown;
    try {
      assertModelOutputFits(output("x".repeat(MAX_MODEL_OUTPUT_BYTES - overhead + 1)));
    } catch (thrown) {
      error = thrown;
    }
    expect(TroupeError.isInstance(error)).toBe(true);
    const refused = error as TroupeError;
    expect(refused.code).toBe("payload_too_large");
    expect(refused.retryable).toBe(false);
    expect(refused.message).toBe(
      `The model's answer is ${MAX_MODEL_OUTPUT_BYTES + 1} bytes (text, reasoning and tool-call arguments); the limit is 524288 bytes.`,
    );
  });

  it("refuses 1.1 MB of tool-call arguments", () => {
    expect(() => assertModelOutputFits(output("", "a".repeat(1_100_000)))).toThrow(
      /^The model's answer is 11000\d\d bytes/,
    );
  });
});
