import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { demoScript } from "./demo-script.js";
import { overloadedScript } from "./overloaded-script.js";
import { ModelNotConfiguredError } from "./model-not-configured-error.js";
import { parseModelSpec } from "./model-spec.js";
import { ScriptedModel } from "./scripted-model.js";

/** A language model object the AI SDK accepts (provider spec v4, v3 or v2). */
export type LanguageModelInstance = Exclude<LanguageModel, string>;

/** A model as an agent or a session names it: a spec string or a model object. */
export type ModelSpec = string | LanguageModelInstance;

/** Environment variables, as in `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Turns a model spec into an AI SDK language model. Constructing a provider
 * model makes no network call; keys are read from `env` here, so a missing key
 * fails now with a clear message rather than at the first request.
 *
 * | spec                                  | model                                                   | key                                    |
 * | ------------------------------------- | ------------------------------------------------------- | -------------------------------------- |
 * | a model object                        | itself                                                  | —                                      |
 * | `scripted`, `scripted:demo`           | `ScriptedModel(demoScript)`                             | —                                      |
 * | `scripted:overloaded`                 | `ScriptedModel(overloadedScript)`: every call fails with a retryable HTTP 529 (to try a fallback chain) | — |
 * | `openai:<model>`                      | `createOpenAI()(model)` (Responses API)                 | `OPENAI_API_KEY` (`OPENAI_BASE_URL` optional) |
 * | `anthropic:<model>`                   | `createAnthropic()(model)`                              | `ANTHROPIC_API_KEY` (`ANTHROPIC_BASE_URL` optional) |
 * | `openai-compatible:<baseURL>#<model>` | `createOpenAICompatible({ baseURL, includeUsage })(model)` (Ollama, vLLM, LM Studio) | `OPENAI_COMPATIBLE_API_KEY`, optional |
 * | undefined                             | the spec in `env.TROUPE_MODEL`, else `scripted:demo`    |                                        |
 *
 * @param spec - the model spec; undefined = `env.TROUPE_MODEL` or the scripted demo.
 * @param env - where keys and `TROUPE_MODEL` are read. Default `process.env`.
 * @returns the language model.
 * @throws ModelNotConfiguredError — `unknown_provider` / `malformed` (the message lists the
 *   accepted forms) or `missing_api_key` (the message names the variable to set).
 * @example
 * ```ts
 * const model = resolveModel("openai-compatible:http://127.0.0.1:11434/v1#llama3.2");
 * const result = streamText({ model, prompt: "hi" });
 * ```
 * @see https://ai-sdk.dev/providers/ai-sdk-providers/openai
 * @see https://ai-sdk.dev/providers/ai-sdk-providers/anthropic
 * @see https://ai-sdk.dev/providers/openai-compatible-providers
 */
export function resolveModel(
  spec: ModelSpec | undefined,
  env: Environment = process.env,
): LanguageModelInstance {
  if (spec !== undefined && typeof spec !== "string") return spec;
  const text = spec ?? nonEmpty(env["TROUPE_MODEL"]) ?? "scripted:demo";
  const parsed = parseModelSpec(text);
  switch (parsed.provider) {
    case "scripted":
      return parsed.script === "overloaded"
        ? new ScriptedModel(overloadedScript, { modelId: "overloaded" })
        : new ScriptedModel(demoScript, { modelId: "demo" });
    case "openai": {
      const apiKey = requireKey(text, env, "OPENAI_API_KEY");
      const baseURL = nonEmpty(env["OPENAI_BASE_URL"]);
      return createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) })(
        parsed.modelId,
      );
    }
    case "anthropic": {
      const apiKey = requireKey(text, env, "ANTHROPIC_API_KEY");
      const baseURL = nonEmpty(env["ANTHROPIC_BASE_URL"]);
      return createAnthropic({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) })(
        parsed.modelId,
      );
    }
    case "openai-compatible": {
      const apiKey = nonEmpty(env["OPENAI_COMPATIBLE_API_KEY"]);
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: parsed.baseURL,
        includeUsage: true,
        ...(apiKey === undefined ? {} : { apiKey }),
      })(parsed.modelId);
    }
  }
}

function requireKey(spec: string, env: Environment, variable: string): string {
  const value = nonEmpty(env[variable]);
  if (value === undefined) {
    throw new ModelNotConfiguredError(
      spec,
      "missing_api_key",
      `Model "${spec}" needs an API key: set ${variable} in the environment of the host.`,
      variable,
    );
  }
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
