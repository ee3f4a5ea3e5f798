import { describe, expect, it } from "vitest";
import type { ModelMessage } from "ai";
import {
  TOOL_CALL_ID_RULES,
  mapToolCallIds,
  toolCallIdRuleOf,
  withProviderToolCallIds,
} from "./provider-tool-call-ids.js";

const call = (toolCallId: string) => ({
  type: "tool-call" as const,
  toolCallId,
  toolName: "lookup",
  input: {},
});
const result = (toolCallId: string) => ({
  type: "tool-result" as const,
  toolCallId,
  toolName: "lookup",
  output: { type: "text" as const, value: "ok" },
});

/** A prompt with calls made by OpenAI (`call_…`), Anthropic (`toolu_…`) and a long foreign id. */
const prompt = {
  instructions: "Be terse.",
  messages: [
    { role: "user", content: "go" },
    { role: "assistant", content: [{ type: "text", text: "on it" }, call("call_abc123")] },
    { role: "tool", content: [result("call_abc123")] },
    {
      role: "assistant",
      content: [call("toolu_01A09q90qw90lq917835lq9"), call("gemini/fc.7:x" + "y".repeat(60))],
    },
    {
      role: "tool",
      content: [result("toolu_01A09q90qw90lq917835lq9"), result("gemini/fc.7:x" + "y".repeat(60))],
    },
  ] satisfies ModelMessage[],
};

function idsOf(messages: readonly ModelMessage[], type: "tool-call" | "tool-result"): string[] {
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.flatMap((part) =>
          part.type === type && "toolCallId" in part ? [part.toolCallId] : [],
        ),
  );
}

describe("tool call ids across providers (issue #19)", () => {
  it("for Mistral every id becomes 9 alphanumerics, distinct, the same in each call and its result", () => {
    const mapped = withProviderToolCallIds(prompt, "mistral.chat");
    const calls = idsOf(mapped.messages, "tool-call");
    expect(calls).toHaveLength(3);
    for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(new Set(calls).size).toBe(3);
    expect(idsOf(mapped.messages, "tool-result")).toEqual(calls);
    // Text and the other parts are untouched.
    expect(mapped.messages[0]).toEqual(prompt.messages[0]);
    expect(mapped.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "on it" },
        { ...call("call_abc123"), toolCallId: calls[0] },
      ],
    });
  });

  it("for Anthropic accepted ids stay and only the foreign one is replaced", () => {
    const mapped = withProviderToolCallIds(prompt, "anthropic.messages");
    const calls = idsOf(mapped.messages, "tool-call");
    expect(calls.slice(0, 2)).toEqual(["call_abc123", "toolu_01A09q90qw90lq917835lq9"]);
    expect(calls[2]).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(idsOf(mapped.messages, "tool-result")).toEqual(calls);
  });

  it("for OpenAI (chat, responses, compatible) ids over 40 characters are replaced", () => {
    for (const provider of ["openai.chat", "openai.responses", "openai-compatible.chat"]) {
      const calls = idsOf(withProviderToolCallIds(prompt, provider).messages, "tool-call");
      expect(calls[0]).toBe("call_abc123");
      expect(calls[2]).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    }
  });

  it("is deterministic: the same prompt maps to the same ids on any host", () => {
    expect(withProviderToolCallIds(prompt, "mistral.chat")).toEqual(
      withProviderToolCallIds(prompt, "mistral.chat"),
    );
  });

  it("providers without a rule (Google, the scripted model) get the prompt unchanged", () => {
    expect(withProviderToolCallIds(prompt, "google.generative-ai")).toBe(prompt);
    expect(withProviderToolCallIds(prompt, "troupe.scripted")).toBe(prompt);
    expect(toolCallIdRuleOf("troupe.scripted")).toBeUndefined();
  });

  it("a made id never takes an id the provider already accepts (clash → next round)", () => {
    const rule = TOOL_CALL_ID_RULES["mistral"]!;
    const first = mapToolCallIds(["not-valid-1"], rule).get("not-valid-1")!;
    // `first` is itself a valid Mistral id, used by another call of the prompt.
    const mapping = mapToolCallIds(["not-valid-1", first], rule);
    expect(mapping.get(first)).toBe(first);
    expect(mapping.get("not-valid-1")).not.toBe(first);
    expect(mapping.get("not-valid-1")).toMatch(/^[a-zA-Z0-9]{9}$/);
  });
});
