import type { McpToolCatalog, ToolDefinition } from "@troupe/tools/internal";
import type { AgentDefinition, SubagentDefinition } from "./agent-definition.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import { effectiveSubagentAgent, keptBySubagentFilter } from "./subagents.js";
import { UnknownAgentError } from "./unknown-agent-error.js";

/** Options of {@link AgentRegistry}. */
export interface AgentRegistryOptions {
  /** Name of the agent for sessions that name none. Default: the first agent. */
  readonly defaultAgent?: string;
  /**
   * The MCP servers' tools (docs/decisions/0024): `get` adds the tools each agent's MCP
   * servers list now (a subagent's filtered by its `tools` deny/allow). Without
   * it, agents have their `defineTool` tools only.
   */
  readonly mcp?: McpToolCatalog;
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
  readonly #subagentFilters = new Map<string, SubagentDefinition["tools"]>();
  readonly #mcp: McpToolCatalog | undefined;
  /** Agents with their MCP tools, by name, at a catalog revision. */
  readonly #withMcp = new Map<string, { revision: number; agent: AgentDefinition }>();
  /** The agent used when a session names none. */
  readonly defaultAgent: AgentDefinition;

  /**
   * @param agents - the agents (made with `defineAgent`), at least one, names unique.
   * @param options - `defaultAgent` (default: the first agent).
   * @throws InvalidAgentError when the list is empty, a name repeats or the default is not in it.
   */
  constructor(agents: readonly AgentDefinition[], options: AgentRegistryOptions = {}) {
    this.#mcp = options.mcp;
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
        this.#subagentFilters.set(effective.name, subagent.tools);
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
    const agent = name === undefined ? this.defaultAgent : this.#agents.get(name);
    if (agent === undefined) throw new UnknownAgentError(name ?? "", this.names);
    return this.#withMcpTools(agent);
  }

  /**
   * Waits until each MCP server of the agent connected or failed its first
   * attempt (at most its `connectTimeoutMs`), so that the first
   * model call and tool call of a fresh host see the servers' tools. Resolves
   * at once without MCP servers.
   *
   * @param name - an agent name, or undefined for the default agent.
   * @throws UnknownAgentError (code `unknown_agent`) listing the served agents.
   */
  async ready(name: string | undefined): Promise<void> {
    const agent = name === undefined ? this.defaultAgent : this.#agents.get(name);
    if (agent === undefined) throw new UnknownAgentError(name ?? "", this.names);
    await this.#mcp?.ready(agent);
  }

  /** Every agent served, subagents' agents included (for starting their MCP servers). */
  get all(): AgentDefinition[] {
    return [...this.#agents.values()];
  }

  #withMcpTools(agent: AgentDefinition): AgentDefinition {
    const mcp = this.#mcp;
    if (mcp === undefined || Object.keys(agent.mcpServers).length === 0) return agent;
    const cached = this.#withMcp.get(agent.name);
    if (cached !== undefined && cached.revision === mcp.revision) return cached.agent;
    const revision = mcp.revision;
    const filter = this.#subagentFilters.get(agent.name);
    const tools: Record<string, ToolDefinition> = { ...agent.tools };
    for (const [toolName, tool] of Object.entries(mcp.toolsOf(agent))) {
      // A local tool or a subagent of the same name wins.
      if (Object.hasOwn(tools, toolName) || Object.hasOwn(agent.subagents, toolName)) continue;
      if (filter !== undefined && !keptBySubagentFilter(filter, toolName)) continue;
      tools[toolName] = tool;
    }
    const merged = Object.freeze({ ...agent, tools: Object.freeze(tools) });
    this.#withMcp.set(agent.name, { revision, agent: merged });
    return merged;
  }
}
