import type { AgentDefinition } from "./agent-definition.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import { effectiveSubagentAgent } from "./subagents.js";
import { UnknownAgentError } from "./unknown-agent-error.js";

/** Options of {@link AgentRegistry}. */
export interface AgentRegistryOptions {
  /** Name of the agent for sessions that name none. Default: the first agent. */
  readonly defaultAgent?: string;
}

/**
 * The agents a host serves, by name, and the default agent for sessions that
 * name none.
 *
 * @example
 * ```ts
 * const agents = new AgentRegistry([assistant, researcher], { defaultAgent: "assistant" });
 * agents.get("researcher"); // researcher
 * agents.get(undefined); // assistant
 * agents.get("planner"); // throws UnknownAgentError: … This host serves: assistant, researcher.
 * ```
 */
export class AgentRegistry {
  readonly #agents = new Map<string, AgentDefinition>();
  readonly #subagentNames = new Set<string>();
  /** The agent used when a session names none. */
  readonly defaultAgent: AgentDefinition;

  /**
   * @param agents - the agents (made with `defineAgent`), at least one, names unique.
   * @param options - `defaultAgent` (default: the first agent).
   * @throws InvalidAgentError when the list is empty, a name repeats or the default is not in it.
   */
  constructor(agents: readonly AgentDefinition[], options: AgentRegistryOptions = {}) {
    for (const agent of agents) {
      if (this.#agents.has(agent.name)) {
        throw new InvalidAgentError(agent.name, [
          { path: ["name"], message: `two agents are named "${agent.name}"; names must be unique` },
        ]);
      }
      this.#agents.set(agent.name, agent);
    }
    // Each subagent's effective agent (filtered tools, no subagents) under
    // `<parent>--<subagent>`, so a subagent's session can name it.
    for (const agent of agents) {
      for (const [name, subagent] of Object.entries(agent.subagents)) {
        const effective = effectiveSubagentAgent(agent, name, subagent);
        if (this.#agents.has(effective.name)) {
          throw new InvalidAgentError(agent.name, [
            {
              path: ["subagents", name],
              message: `the subagent's agent name "${effective.name}" is taken by another agent`,
            },
          ]);
        }
        this.#subagentNames.add(effective.name);
        this.#agents.set(effective.name, effective);
      }
    }
    const defaultName = options.defaultAgent ?? agents[0]?.name;
    const fallback = defaultName === undefined ? undefined : this.#agents.get(defaultName);
    if (fallback === undefined) {
      throw new InvalidAgentError(defaultName, [
        {
          path: ["defaultAgent"],
          message:
            agents.length === 0
              ? "a host must serve at least one agent"
              : `the default agent is not among the served agents (${this.names.join(", ")})`,
        },
      ]);
    }
    this.defaultAgent = fallback;
  }

  /** Names of the served agents, in the order given (subagents' agents excluded). */
  get names(): string[] {
    return [...this.#agents.keys()].filter((name) => !this.#subagentNames.has(name));
  }

  /**
   * Whether an agent of this name is served.
   *
   * @param name - an agent name.
   */
  has(name: string): boolean {
    return this.#agents.has(name);
  }

  /**
   * The agent of that name, or the default agent when `name` is undefined.
   *
   * @param name - the agent a session named, if any.
   * @throws UnknownAgentError (code `unknown_agent`) listing the served agents.
   */
  get(name: string | undefined): AgentDefinition {
    if (name === undefined) return this.defaultAgent;
    const agent = this.#agents.get(name);
    if (agent === undefined) throw new UnknownAgentError(name, this.names);
    return agent;
  }
}
