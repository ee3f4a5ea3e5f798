import { agentResolveOutputSchema, type TroupeError } from "@troupe/protocol";
import type { EffectContext } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import { AgentRegistry } from "./agent-registry.js";
import { createAgentResolveHandler } from "./agent-resolve-handler.js";
import { defineAgent } from "./define-agent.js";

const helper = defineAgent({ name: "helper", instructions: "Help." });
const agents = new AgentRegistry([
  defineAgent({
    name: "strict",
    instructions: "Be strict.",
    settings: { policy: "reject" },
    limits: { maxModelCalls: 3 },
    version: "7",
    subagents: { aide: { description: "An aide.", agent: helper } },
  }),
  defineAgent({ name: "relaxed", instructions: "Relax." }),
]);
const resolve = createAgentResolveHandler(agents);
const context: EffectContext = {
  signal: new AbortController().signal,
  address: { kind: "session", id: "s1" },
  effectId: "agent.1",
  hostRun: () => Promise.resolve(1),
};

describe("agent.resolve handler", () => {
  it("answers an agent's session defaults, the default agent's for an input without a name", async () => {
    const strict = { name: "strict", policy: "reject", maxModelCalls: 3, version: "7" };
    expect(await resolve({ agent: "strict" }, context)).toEqual(strict);
    expect(await resolve({ agent: "relaxed" }, context)).toEqual({
      name: "relaxed",
      policy: "enqueue",
      maxModelCalls: 50,
    });
    expect(await resolve({}, context)).toEqual(strict);
    expect(await resolve({ agent: null }, context)).toEqual(strict);
    expect(agentResolveOutputSchema.parse(await resolve({}, context))).toEqual(strict);
  });

  it("answers a subagent's agent by its registered name <parent>--<subagent>", async () => {
    expect(await resolve({ agent: "strict--aide" }, context)).toEqual({
      name: "strict--aide",
      policy: "enqueue",
      maxModelCalls: 50,
    });
  });

  it("fails an unknown agent with unknown_agent, not retryable, listing the agents served", async () => {
    const failure = (await resolve({ agent: "nope" }, context).catch((error: unknown) => error)) as
      TroupeError | undefined;
    expect(failure?.code).toBe("unknown_agent");
    expect(failure?.retryable).toBe(false);
    expect(failure?.message).toBe('Unknown agent "nope". This host serves: strict, relaxed.');
  });

  it("fails a malformed input with internal", async () => {
    const failure = (await resolve({ agent: 7 }, context).catch((error: unknown) => error)) as
      TroupeError | undefined;
    expect(failure?.code).toBe("internal");
  });
});
