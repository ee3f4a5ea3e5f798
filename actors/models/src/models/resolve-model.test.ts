import { TroupeError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { ModelNotConfiguredError } from "./model-not-configured-error.js";
import { parseModelSpec } from "./model-spec.js";
import { resolveModel } from "./resolve-model.js";
import { ScriptedModel } from "./scripted-model.js";

function thrownBy(action: () => unknown): ModelNotConfiguredError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelNotConfiguredError);
    return error as ModelNotConfiguredError;
  }
  throw new Error("expected the call to throw");
}

describe("resolveModel", () => {
  it("returns a model object unchanged", () => {
    const model = new ScriptedModel([]);
    expect(resolveModel(model, {})).toBe(model);
  });

  it("resolves scripted and scripted:demo to the scripted demo model", () => {
    for (const spec of ["scripted", "scripted:demo"]) {
      const model = resolveModel(spec, {});
      expect(model).toBeInstanceOf(ScriptedModel);
      expect(model).toMatchObject({ provider: "troupe.scripted", modelId: "demo" });
    }
  });

  it("resolves scripted:overloaded to a scripted model whose every call fails with a retryable 529", async () => {
    const model = resolveModel("scripted:overloaded", {}) as ScriptedModel;
    expect(model).toMatchObject({ provider: "troupe.scripted", modelId: "overloaded" });
    for (let call = 0; call < 2; call++) {
      await expect(model.doStream({ prompt: [] })).rejects.toMatchObject({
        statusCode: 529,
        isRetryable: true,
        message: "the scripted model is overloaded",
      });
    }
  });

  it("uses TROUPE_MODEL when no spec is given, else the scripted demo", () => {
    const fromEnv = resolveModel(undefined, {
      TROUPE_MODEL: "anthropic:claude-x",
      ANTHROPIC_API_KEY: "k",
    });
    expect(fromEnv).toMatchObject({ modelId: "claude-x" });
    expect(resolveModel(undefined, {})).toBeInstanceOf(ScriptedModel);
    expect(resolveModel(undefined, { TROUPE_MODEL: "  " })).toBeInstanceOf(ScriptedModel);
  });

  it("builds an OpenAI model (Responses API) when OPENAI_API_KEY is set", () => {
    const model = resolveModel("openai:gpt-4o-mini", { OPENAI_API_KEY: "sk-test" });
    expect(model).toMatchObject({ specificationVersion: "v4", modelId: "gpt-4o-mini" });
    expect((model as { provider: string }).provider).toMatch(/^openai/);
  });

  it("builds an Anthropic model when ANTHROPIC_API_KEY is set", () => {
    const model = resolveModel("anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "sk-ant" });
    expect(model).toMatchObject({ specificationVersion: "v4", modelId: "claude-sonnet-4-5" });
    expect((model as { provider: string }).provider).toMatch(/^anthropic/);
  });

  it("builds an OpenAI-compatible model with or without a key", () => {
    const spec = "openai-compatible:http://127.0.0.1:11434/v1/#llama3.2";
    for (const env of [{}, { OPENAI_COMPATIBLE_API_KEY: "local" }]) {
      const model = resolveModel(spec, env);
      expect(model).toMatchObject({ specificationVersion: "v4", modelId: "llama3.2" });
      expect((model as { provider: string }).provider).toMatch(/^openai-compatible/);
    }
  });

  it("names the variable to set when a key is missing or empty", () => {
    const openai = thrownBy(() => resolveModel("openai:gpt-4o-mini", { OPENAI_API_KEY: "" }));
    expect(openai.message).toContain("set OPENAI_API_KEY");
    expect(openai).toMatchObject({
      code: "model_not_configured",
      reason: "missing_api_key",
      variable: "OPENAI_API_KEY",
      retryable: false,
    });
    const anthropic = thrownBy(() => resolveModel("anthropic:claude", {}));
    expect(anthropic.message).toContain("set ANTHROPIC_API_KEY");
    expect(TroupeError.isInstance(anthropic)).toBe(true);
  });

  it("lists the accepted forms for an unknown provider", () => {
    const error = thrownBy(() => resolveModel("gemini:pro", {}));
    expect(error.reason).toBe("unknown_provider");
    expect(error.message).toBe(
      'Unknown model "gemini:pro". Accepted forms: scripted, scripted:demo, scripted:overloaded, openai:<model>, anthropic:<model>, openai-compatible:<baseURL>#<model>.',
    );
  });
});

describe("parseModelSpec", () => {
  it("parses every accepted form", () => {
    expect(parseModelSpec("scripted")).toEqual({ provider: "scripted", script: "demo" });
    expect(parseModelSpec("openai:gpt-4o")).toEqual({ provider: "openai", modelId: "gpt-4o" });
    expect(parseModelSpec("openai-compatible:https://host:8000/v1#org/model:7b")).toEqual({
      provider: "openai-compatible",
      baseURL: "https://host:8000/v1",
      modelId: "org/model:7b",
    });
  });

  it("refuses malformed specs with what is wrong", () => {
    expect(thrownBy(() => parseModelSpec("openai:")).message).toContain(
      'names no model after "openai:"',
    );
    expect(thrownBy(() => parseModelSpec("openai-compatible:http://x/v1")).message).toContain(
      "no model",
    );
    expect(thrownBy(() => parseModelSpec("openai-compatible:not a url#m")).message).toContain(
      "is not a URL",
    );
    expect(thrownBy(() => parseModelSpec("openai-compatible:ftp://x#m")).reason).toBe("malformed");
    expect(thrownBy(() => parseModelSpec("")).reason).toBe("unknown_provider");
  });
});
