import { describe, expect, it } from "vitest";
import { TroupeError } from "@troupe/protocol";
import { ScriptedModel } from "@troupe/models";
import { defineAgent } from "./define-agent.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import { ModelCallError } from "./model-call-error.js";
import { modelChainOf, modelLabelOf, withModelChainPosition } from "./model-chain.js";

const agent = (model: Parameters<typeof defineAgent>[0]["model"]) =>
  defineAgent({ name: "a", instructions: "Be terse.", model });

describe("model chains of agents (issue #19)", () => {
  it("defineAgent takes a list: the first is the model, the rest the fallbacks in order", () => {
    const backup = new ScriptedModel([], { modelId: "backup" });
    const defined = agent(["anthropic:claude-sonnet-4-5", "openai:gpt-4o", backup]);
    expect(defined.model).toBe("anthropic:claude-sonnet-4-5");
    expect(defined.fallbackModels).toEqual(["openai:gpt-4o", backup]);
    expect(modelChainOf(defined, undefined)).toEqual([
      "anthropic:claude-sonnet-4-5",
      "openai:gpt-4o",
      backup,
    ]);
    expect(agent(["openai:gpt-4o"]).fallbackModels).toBeUndefined();
  });

  it("defineAgent refuses an empty list, more than 5 models and a bad entry, naming its index", () => {
    expect(() => agent([])).toThrow(/1 to 5 models; got 0/);
    expect(() => agent(Array.from({ length: 6 }, () => "scripted:demo"))).toThrow(
      /1 to 5 models; got 6/,
    );
    try {
      agent(["openai:gpt-4o", "nope:model"]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidAgentError);
      const issues = (error as InvalidAgentError).issues;
      expect(issues.map((issue) => issue.path)).toEqual([["model", 1]]);
      expect(issues[0]?.message).toContain('Unknown model "nope:model"');
    }
  });

  it("a session's model replaces the chain; no model at all is one entry (TROUPE_MODEL)", () => {
    expect(modelChainOf(agent(["openai:gpt-4o", "scripted:demo"]), "anthropic:x")).toEqual([
      "anthropic:x",
    ]);
    expect(modelChainOf(agent(undefined), undefined)).toEqual([undefined]);
  });

  it("labels: spec strings as given, model objects as provider:modelId, none as TROUPE_MODEL", () => {
    expect(modelLabelOf(" openai:gpt-4o ", {})).toBe("openai:gpt-4o");
    expect(modelLabelOf(new ScriptedModel([], { modelId: "m" }), {})).toBe("troupe.scripted:m");
    expect(modelLabelOf(undefined, { TROUPE_MODEL: "openai:gpt-4o-mini" })).toBe(
      "openai:gpt-4o-mini",
    );
    expect(modelLabelOf(undefined, {})).toBe("scripted:demo");
  });

  it("only availability errors of a chain of 2+ get the chain position", () => {
    const position = { modelIndex: 0, models: ["a:x", "b:y"] };
    const unavailable = new ModelCallError("down", true, { statusCode: 503 });
    expect(withModelChainPosition(unavailable, position)).toBe(unavailable);
    expect(unavailable.details).toEqual({ statusCode: 503, modelIndex: 0, models: ["a:x", "b:y"] });
    expect(unavailable).toBeInstanceOf(ModelCallError);

    const refused = new ModelCallError("bad request", false, { statusCode: 400 });
    withModelChainPosition(refused, position);
    expect(refused.details).toEqual({ statusCode: 400 });

    const transcript = new TroupeError("effect_failed", "no transcript", { retryable: true });
    withModelChainPosition(transcript, position);
    expect(transcript.details).toBeUndefined();

    const alone = new ModelCallError("down", true, {});
    withModelChainPosition(alone, { modelIndex: 0, models: ["a:x"] });
    expect(alone.details).toEqual({});
  });
});
