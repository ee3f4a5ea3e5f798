import { createHash } from "node:crypto";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { canonicalJson, toStored } from "./stored-value.js";

/**
 * The parts of a model request a recording answers for: the rendered prompt,
 * the tools and every generation setting. Left out: `abortSignal`, `headers`
 * (per-call transport details), `includeRawChunks`, and Troupe's own call
 * metadata in `providerOptions.troupe` (session, run, call index, retry: no
 * provider reads it), so the same prompt in another session replays the same
 * recording.
 */
export function cassetteRequest(options: LanguageModelV4CallOptions): Record<string, unknown> {
  const {
    abortSignal: _abortSignal,
    headers: _headers,
    includeRawChunks: _includeRawChunks,
    providerOptions,
    ...request
  } = options;
  const { troupe: _troupe, ...providers } = providerOptions ?? {};
  return toStored(
    Object.keys(providers).length === 0 ? request : { ...request, providerOptions: providers },
  ) as Record<string, unknown>;
}

/** The key of a request: SHA-256 (hex) of its canonical JSON. */
export function requestKey(request: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

/**
 * A request as lines for a readable diff: one block per prompt message
 * (`[system]`, `[user]`, `[assistant]`, `[tool]`, text parts as they are, other
 * parts as JSON), then the tools (name and input schema) and the settings.
 */
export function requestLines(request: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const prompt = Array.isArray(request.prompt) ? (request.prompt as unknown[]) : [];
  for (const message of prompt) {
    const { role, content } = message as { role?: string; content?: unknown };
    lines.push(`[${role ?? "?"}]`);
    if (typeof content === "string") lines.push(...content.split("\n"));
    else if (Array.isArray(content)) {
      for (const part of content as Array<{ type?: string; text?: string }>) {
        if (part.type === "text" && typeof part.text === "string") {
          lines.push(...part.text.split("\n"));
        } else lines.push(canonicalJson(part));
      }
    }
  }
  const tools = Array.isArray(request.tools) ? (request.tools as unknown[]) : [];
  for (const tool of tools) lines.push(`[tool definition] ${canonicalJson(tool)}`);
  const { prompt: _prompt, tools: _tools, ...settings } = request;
  if (Object.keys(settings).length > 0) lines.push(`[settings] ${canonicalJson(settings)}`);
  return lines;
}
