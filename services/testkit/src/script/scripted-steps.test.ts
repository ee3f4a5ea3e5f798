import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { callTool, reply, scriptedModel } from "./scripted-steps.js";

/** One model call of a session, as the model-call handler makes it. */
function call(
  sessionId: string,
  runId: string,
  modelCallIndex: number,
): LanguageModelV4CallOptions {
  return {
    prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    providerOptions: { troupe: { sessionId, runId, modelCallIndex, retry: 1 } },
  };
}

async function contentOf(
  model: ReturnType<typeof scriptedModel>,
  options: LanguageModelV4CallOptions,
): Promise<unknown> {
  return (await model.doGenerate(options)).content;
}

describe("scriptedModel", () => {
  it("plays the steps per session, a retry of a call getting the same step again", async () => {
    const model = scriptedModel([callTool("look_up", { id: 1 }), reply("done")]);
    const lookUp = [
      { type: "tool-call", toolCallId: "look_up-0", toolName: "look_up", input: '{"id":1}' },
    ];
    expect(await contentOf(model, call("a", "r1", 0))).toEqual(lookUp);
    // Session b starts at the first step too.
    expect(await contentOf(model, call("b", "r1", 0))).toEqual(lookUp);
    // A retry of a's first call (same run, same model call) plays the same step.
    expect(await contentOf(model, call("a", "r1", 0))).toEqual(lookUp);
    expect(await contentOf(model, call("a", "r1", 1))).toEqual([{ type: "text", text: "done" }]);
  });

  it("fails a call past the end with a non-retryable error naming the session and the step count", async () => {
    const model = scriptedModel([reply("one")]);
    await contentOf(model, call("s1", "r1", 0));
    await expect(model.doGenerate(call("s1", "r2", 0))).rejects.toMatchObject({
      isRetryable: false,
      message: "scriptedModel: session s1 made model call 2, but the script has 1 step(s)",
    });
  });

  it("runs a step function with the request, and keeps given tool call ids", async () => {
    const model = scriptedModel([
      ({ troupe }) => reply(`for ${String(troupe?.["sessionId"])}`),
      callTool("pay", "{}", { toolCallId: "my-call", text: "Paying." }),
    ]);
    expect(await contentOf(model, call("s9", "r1", 0))).toEqual([{ type: "text", text: "for s9" }]);
    expect(await contentOf(model, call("s9", "r1", 1))).toEqual([
      { type: "text", text: "Paying." },
      { type: "tool-call", toolCallId: "my-call", toolName: "pay", input: "{}" },
    ]);
  });
});
