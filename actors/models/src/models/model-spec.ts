import { ModelNotConfiguredError } from "./model-not-configured-error.js";

/** The model spec forms `parseModelSpec` accepts, for error messages and docs. */
export const MODEL_SPEC_FORMS: readonly string[] = [
  "scripted",
  "scripted:demo",
  "scripted:overloaded",
  "openai:<model>",
  "anthropic:<model>",
  "openai-compatible:<baseURL>#<model>",
];

/**
 * A model spec string, parsed:
 * `{ provider: "scripted", script: "demo" | "overloaded" }`,
 * `{ provider: "openai" | "anthropic", modelId }` or
 * `{ provider: "openai-compatible", baseURL, modelId }`.
 */
export type ParsedModelSpec =
  | { readonly provider: "scripted"; readonly script: "demo" | "overloaded" }
  | { readonly provider: "openai" | "anthropic"; readonly modelId: string }
  | { readonly provider: "openai-compatible"; readonly baseURL: string; readonly modelId: string };

/**
 * Parses a model spec string without looking at the environment (no keys, no
 * network), so agent definitions can be checked when they are defined.
 *
 * @param spec - one of {@link MODEL_SPEC_FORMS}, e.g. `openai:gpt-4o-mini` or
 *   `openai-compatible:http://127.0.0.1:11434/v1#llama3.2`.
 * @returns the parsed spec.
 * @throws ModelNotConfiguredError (`unknown_provider` or `malformed`) naming the accepted forms.
 * @example parseModelSpec("anthropic:claude-sonnet-4-5") // { provider: "anthropic", modelId: "claude-sonnet-4-5" }
 */
export function parseModelSpec(spec: string): ParsedModelSpec {
  const trimmed = spec.trim();
  if (trimmed === "scripted" || trimmed === "scripted:demo") {
    return { provider: "scripted", script: "demo" };
  }
  if (trimmed === "scripted:overloaded") return { provider: "scripted", script: "overloaded" };
  const colon = trimmed.indexOf(":");
  const provider = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const rest = colon < 0 ? "" : trimmed.slice(colon + 1);
  switch (provider) {
    case "openai":
    case "anthropic":
      if (rest.length === 0) throw malformed(spec, `it names no model after "${provider}:"`);
      return { provider, modelId: rest };
    case "openai-compatible":
      return parseCompatible(spec, rest);
    default:
      throw new ModelNotConfiguredError(
        spec,
        "unknown_provider",
        `Unknown model "${spec}". Accepted forms: ${MODEL_SPEC_FORMS.join(", ")}.`,
      );
  }
}

function parseCompatible(spec: string, rest: string): ParsedModelSpec {
  const hash = rest.lastIndexOf("#");
  const baseURL = hash < 0 ? rest : rest.slice(0, hash);
  const modelId = hash < 0 ? "" : rest.slice(hash + 1);
  if (modelId.length === 0) throw malformed(spec, 'it names no model after "#"');
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw malformed(spec, `"${baseURL}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw malformed(spec, `"${baseURL}" is not an http or https URL`);
  }
  return { provider: "openai-compatible", baseURL: baseURL.replace(/\/+$/, ""), modelId };
}

function malformed(spec: string, problem: string): ModelNotConfiguredError {
  return new ModelNotConfiguredError(
    spec,
    "malformed",
    `Malformed model "${spec}": ${problem}. Accepted forms: ${MODEL_SPEC_FORMS.join(", ")}.`,
  );
}
