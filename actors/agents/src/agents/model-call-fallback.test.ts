import { describe, expect, it } from "vitest";
import type { EffectContext } from "@troupe/runtime";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { TroupeError, modelChainPositionSchema, type ModelCallOutput } from "@troupe/protocol";
import { ScriptedModel } from "@troupe/models";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

/** A scripted model that reports the provider id of Mistral's AI SDK provider (`mistral.chat`). */
function mistralLike(model: ScriptedModel): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "mistral.chat",
    modelId: model.modelId,
    supportedUrls: {},
    doStream: (options) => model.doStream(options),
    doGenerate: (options) => model.doGenerate(options),
  };
}

const input = {
  sessionId: "s1",
  runId: "r1",
  transcriptLength: 4,
  modelCallIndex: 2,
  retry: 3,
  withoutTools: false,
};

function setup(fallback: LanguageModelV4, options: { maxPromptTokens?: number } = {}) {
  const agents = new AgentRegistry([
    defineAgent({
      name: "assistant",
      instructions: "You are terse.",
      model: ["scripted:overloaded", fallback],
      ...(options.maxPromptTokens === undefined
        ? {}
        : { context: { maxPromptTokens: options.maxPromptTokens } }),
    }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  // A tool call made by another provider, with an id Mistral refuses.
  transcript.append(
    "s1",
    { role: "user", text: "weather?", messageId: "m1" },
    {
      role: "assistant",
      text: "",
      runId: "r1",
      toolCalls: [{ toolCallId: "toolu_01XyZ-long.id", toolName: "weather", input: "{}" }],
    },
    {
      role: "tool",
      runId: "r1",
      toolCallId: "toolu_01XyZ-long.id",
      toolName: "weather",
      status: "succeeded",
      content: "sunny",
    },
    { role: "user", text: "and tomorrow?", messageId: "m2" },
  );
  const context: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "run", id: "s1" },
    effectId: "r1.m2.a3",
    hostRun: () => Promise.resolve(1),
  };
  const handler = createModelCallHandler({
    agents,
    transcript,
    env: {},
    publishDelta: () => undefined,
  });
  return { handler, context };
}

describe("model.call handler: fallback chain (issue #19)", () => {
  it("an availability failure of the primary carries its chain position for the run machine", async () => {
    const fallback = new ScriptedModel([{ text: "unused" }], { modelId: "backup" });
    const { handler, context } = setup(fallback);
    const error: unknown = await handler(input, context).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(TroupeError.isInstance(error)).toBe(true);
    const troupeError = error as TroupeError;
    expect(troupeError).toMatchObject({ code: "model_error", retryable: true });
    expect(troupeError.details).toMatchObject({ statusCode: 529 });
    expect(modelChainPositionSchema.parse(troupeError.details)).toEqual({
      modelIndex: 0,
      models: ["scripted:overloaded", "troupe.scripted:backup"],
    });
    expect(fallback.callCount).toBe(0);
  });

  it("a compaction the primary fails to write falls back like the call: its failure carries the chain position", async () => {
    const fallback = new ScriptedModel([{ text: "A summary." }, { text: "Rain." }], {
      modelId: "backup",
    });
    const { handler, context } = setup(fallback, { maxPromptTokens: 20 });
    const error: unknown = await handler(input, context).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "model_error", retryable: true });
    expect(modelChainPositionSchema.parse((error as TroupeError).details)).toEqual({
      modelIndex: 0,
      models: ["scripted:overloaded", "troupe.scripted:backup"],
    });
    // On the fallback, the fallback writes the summary, then answers.
    const output = (await handler({ ...input, modelIndex: 1 }, context)) as ModelCallOutput;
    expect(output).toMatchObject({ text: "Rain.", modelIndex: 1 });
    expect(output.compaction).toBeDefined();
    expect(fallback.callCount).toBe(2);
  });

  it("modelIndex 1 calls the fallback, and the output names it", async () => {
    const fallback = new ScriptedModel([{ text: "Rain." }], { modelId: "backup" });
    const { handler, context } = setup(fallback);
    const output = await handler({ ...input, modelIndex: 1 }, context);
    expect(output).toMatchObject({
      text: "Rain.",
      model: "troupe.scripted:backup",
      modelIndex: 1,
    });
    expect(fallback.callCount).toBe(1);
    expect(fallback.lastCall?.providerOptions?.["troupe"]).toMatchObject({ modelIndex: 1 });
  });

  it("the fallback of another provider gets tool call ids it accepts, the same in the call and its result", async () => {
    const fallback = new ScriptedModel([{ text: "Rain." }], { modelId: "mistral-large" });
    const { handler, context } = setup(mistralLike(fallback));
    await handler({ ...input, modelIndex: 1 }, context);
    const prompt = fallback.lastCall?.prompt ?? [];
    const callIds = prompt.flatMap((message) =>
      message.role === "assistant"
        ? message.content.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []))
        : [],
    );
    const resultIds = prompt.flatMap((message) =>
      message.role === "tool"
        ? message.content.flatMap((part) => (part.type === "tool-result" ? [part.toolCallId] : []))
        : [],
    );
    expect(callIds).toHaveLength(1);
    expect(callIds[0]).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(resultIds).toEqual(callIds);
  });

  it("a modelIndex past the host's chain fails with model_not_configured, not retryable", async () => {
    const { handler, context } = setup(new ScriptedModel([{ text: "x" }]));
    await expect(handler({ ...input, modelIndex: 2 }, context)).rejects.toMatchObject({
      code: "model_not_configured",
      retryable: false,
    });
  });

  it("a session's model replaces the chain: modelIndex is ignored and the output names no model", async () => {
    const fallback = new ScriptedModel([{ text: "unused" }]);
    const { handler, context } = setup(fallback);
    const output = (await handler(
      { ...input, model: "scripted:demo", modelIndex: 1 },
      context,
    )) as ModelCallOutput;
    expect(output.text).toBe("You said: and tomorrow?");
    expect(output.model).toBeUndefined();
    expect(fallback.callCount).toBe(0);
  });
});
