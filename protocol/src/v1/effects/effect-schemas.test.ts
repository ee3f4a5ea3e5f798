import { describe, expect, it } from "vitest";
import { TroupeError } from "@troupe/addressing";
import { modelCallInputSchema, modelCallOutputSchema } from "./model-call.js";
import { parseEffectInput } from "./parse-effect-input.js";
import { toolExecuteInputSchema, toolExecuteOutputSchema } from "./tool-execute.js";

const usage = { inputTokens: 1, outputTokens: 2 };

describe("effect schemas", () => {
  it("model.call input: null reads as absent and withoutTools defaults to false", () => {
    expect(
      modelCallInputSchema.parse({
        sessionId: "s1",
        runId: "r1",
        agent: null,
        model: null,
        toolPolicy: null,
        parentSessionId: null,
        transcriptLength: 0,
        modelCallIndex: 1,
        retry: 1,
      }),
    ).toStrictEqual({
      sessionId: "s1",
      runId: "r1",
      transcriptLength: 0,
      modelCallIndex: 1,
      retry: 1,
      withoutTools: false,
    });
  });

  it("model.call input: `attempt`, stored by earlier releases, reads as `retry`", () => {
    const stored = { sessionId: "s1", runId: "r1", transcriptLength: 2, modelCallIndex: 1 };
    expect(modelCallInputSchema.parse({ ...stored, attempt: 2 })).toStrictEqual({
      ...stored,
      retry: 2,
      withoutTools: false,
    });
    expect(modelCallInputSchema.parse({ ...stored, retry: 3, attempt: 2 }).retry).toBe(3);
  });

  it("model.call output: toolCalls default to [] and each call's effectClass to unclassified", () => {
    expect(
      modelCallOutputSchema.parse({ text: "a", finishReason: "stop", usage, reasoning: null }),
    ).toStrictEqual({ text: "a", finishReason: "stop", usage, toolCalls: [] });
    const parsed = modelCallOutputSchema.parse({
      text: "",
      finishReason: "tool-calls",
      usage,
      toolCalls: [{ toolCallId: "c1", toolName: "x", input: "{}", effectClass: null, extra: 1 }],
    });
    expect(parsed.toolCalls).toStrictEqual([
      { toolCallId: "c1", toolName: "x", input: "{}", effectClass: "unclassified" },
    ]);
  });

  it("model.call output: tool call ids repeated within a response are refused", () => {
    const call = { toolCallId: "c1", toolName: "x", input: "{}" };
    const result = modelCallOutputSchema.safeParse({
      text: "",
      finishReason: "tool-calls",
      usage,
      toolCalls: [call, call],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([
      ["toolCalls", 1, "toolCallId"],
    ]);
  });

  it("tool.execute input and output: null reads as absent, unknown output fields are dropped", () => {
    expect(
      toolExecuteInputSchema.parse({
        sessionId: "s1",
        runId: "r1",
        toolCallId: "c1",
        toolName: "x",
        input: "{}",
        agent: null,
        effectClass: null,
        idempotencyKey: null,
      }),
    ).toStrictEqual({ sessionId: "s1", runId: "r1", toolCallId: "c1", toolName: "x", input: "{}" });
    expect(
      toolExecuteOutputSchema.parse({ status: "failed", content: "x", truncated: null, other: 1 }),
    ).toStrictEqual({ status: "failed", content: "x" });
  });

  it("parseEffectInput refuses a malformed input with a non-retryable internal error naming the field", () => {
    let thrown: unknown;
    try {
      parseEffectInput("model.call", modelCallInputSchema, { sessionId: "s1", modelCallIndex: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(TroupeError.isInstance(thrown)).toBe(true);
    const error = thrown as TroupeError;
    expect(error.code).toBe("internal");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^invalid model\.call input: .*modelCallIndex/s);
    expect(error.details?.["issues"]).toContainEqual({
      path: ["modelCallIndex"],
      message: expect.any(String) as unknown,
    });
  });
});
