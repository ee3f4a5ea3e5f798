import { defineAgent, ModelNotConfiguredError } from "@troupe/agents";
import { describe, expect, it } from "vitest";
import { agentModels } from "./agent-models.js";

const agent = (name: string, model?: string) =>
  defineAgent({ name, instructions: "test", ...(model === undefined ? {} : { model }) });

describe("agentModels (troupe dev's banner and key check, issue #13)", () => {
  it("names each agent's model: its own spec, else TROUPE_MODEL, else the scripted demo", () => {
    expect(
      agentModels([agent("a", "openai:gpt-4.1-mini"), agent("b"), agent("c", "scripted")], {
        OPENAI_API_KEY: "sk-test",
      }),
    ).toEqual([
      { agent: "a", model: "openai:gpt-4.1-mini" },
      { agent: "b", model: "troupe.scripted:demo" },
      { agent: "c", model: "scripted" },
    ]);
    expect(
      agentModels([agent("b")], { TROUPE_MODEL: "anthropic:claude-x", ANTHROPIC_API_KEY: "k" }),
    ).toEqual([{ agent: "b", model: "anthropic:claude-x" }]);
  });

  it("a missing provider key throws ModelNotConfiguredError naming the agent, the model and the variable", () => {
    const error = (() => {
      try {
        agentModels([agent("support", "openai:gpt-4.1-mini")], {});
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ModelNotConfiguredError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "missing_api_key", variable: "OPENAI_API_KEY" });
    expect((error as Error).message).toBe(
      'Agent "support" uses the model "openai:gpt-4.1-mini", which needs OPENAI_API_KEY: ' +
        "set it (export OPENAI_API_KEY=…) and start again.",
    );
    expect(() => agentModels([agent("b")], { TROUPE_MODEL: "anthropic:claude-x" })).toThrow(
      'Agent "b" uses the model "anthropic:claude-x", which needs ANTHROPIC_API_KEY: set it ' +
        "(export ANTHROPIC_API_KEY=…) and start again, or unset TROUPE_MODEL for the scripted demo model.",
    );
  });
});
