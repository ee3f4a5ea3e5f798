import { defineAgent, ModelNotConfiguredError } from "@troupe/agents";
import { describe, expect, it } from "vitest";
import { agentModels } from "./agent-models.js";

const chain = (model: string[]) => defineAgent({ name: "support", instructions: "test", model });

describe("agentModels with a fallback chain (issue #19)", () => {
  it("names the primary and the fallbacks in order", () => {
    expect(
      agentModels([chain(["scripted:overloaded", "openai:gpt-4o", "scripted:demo"])], {
        OPENAI_API_KEY: "sk-test",
      }),
    ).toEqual([
      {
        agent: "support",
        model: "scripted:overloaded",
        fallbackModels: ["openai:gpt-4o", "scripted:demo"],
      },
    ]);
  });

  it("a fallback's missing key stops the host at start, not during an outage of the primary", () => {
    expect(() => agentModels([chain(["scripted:demo", "anthropic:claude-x"])], {})).toThrow(
      ModelNotConfiguredError,
    );
    expect(() => agentModels([chain(["scripted:demo", "anthropic:claude-x"])], {})).toThrow(
      'Agent "support" uses the model "anthropic:claude-x", which needs ANTHROPIC_API_KEY',
    );
  });
});
