import {
  AGENT_RESOLVE_EFFECT,
  agentResolveInputSchema,
  parseEffectInput,
  type AgentResolveOutput,
} from "@troupe/protocol";
import type { EffectHandler } from "@troupe/runtime";
import type { AgentRegistry } from "./agent-registry.js";

/**
 * Creates the handler of the `agent.resolve` effect, which a session requests
 * the first time it meets an agent name: it looks the agent up in the
 * registry (the default agent when the input names none; subagents' agents
 * under `<parent>--<subagent>`) and returns its defaults for a session. The
 * result is journaled in the session's inbox, so the session's decisions
 * replay without the registry (docs/decisions/0008).
 *
 * @param agents - the agents this host serves.
 * @returns an `EffectHandler` for the effect name `agent.resolve`, resolving to
 *   `{ name, policy, maxModelCalls, version? }` (`AgentResolveOutput`).
 * @throws (from the handler) UnknownAgentError `unknown_agent` (not retryable)
 *   listing the served agents — the session refuses the message with that code
 *   and text; TroupeError `internal` for a malformed input.
 * @example
 * ```ts
 * effects: { [AGENT_RESOLVE_EFFECT]: createAgentResolveHandler(agents) }
 * ```
 */
export function createAgentResolveHandler(agents: AgentRegistry): EffectHandler {
  // The executor's throw (an unknown agent) rejects the promise.
  return (rawInput: unknown) =>
    new Promise<AgentResolveOutput>((resolve) => {
      const input = parseEffectInput(AGENT_RESOLVE_EFFECT, agentResolveInputSchema, rawInput);
      const agent = agents.get(input.agent);
      resolve({
        name: agent.name,
        policy: agent.settings.policy,
        maxModelCalls: agent.limits.maxModelCalls,
        ...(agent.version === undefined ? {} : { version: agent.version }),
      });
    });
}
