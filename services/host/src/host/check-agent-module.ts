import { AgentRegistry } from "@troupe/agents/internal";
import { Redis } from "ioredis";
import { agentModels, type AgentModel } from "./agent-models.js";
import { DEMO_AGENT_MODULE } from "./demo-agent-module.js";
import { importAgentModule } from "./load-agents.js";
import { demoAgents } from "../demo/demo-agents.js";

/**
 * What `troupe host --check` checks, and `troupe dev` through it before it
 * starts any server (docs/decisions/0019): the agent module imports and exports agents,
 * and — when the agents are known without calling a factory (agents exported
 * as values, or the demo) — each agent's model has its provider key in this
 * environment, which the hosts inherit. A module exporting a factory is
 * checked by each host when it starts (the same {@link agentModels}). It
 * imports the module, so it runs in a process of its own: a module may do
 * anything when imported (start timers, exit).
 *
 * @param agentModule - `demo`, a path or a package name.
 * @param env - the environment the hosts will get.
 * @returns the agents' models, or `undefined` when only the hosts can tell.
 * @throws AgentModuleError for a module that cannot be imported or exports no agents.
 * @throws InvalidAgentError when two agents share a name (as a host would).
 * @throws ModelNotConfiguredError naming the agent, the model and the variable to set.
 */
export async function checkAgentModule(
  agentModule: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<AgentModel[] | undefined> {
  if (agentModule === DEMO_AGENT_MODULE) {
    // The demo's factory only keeps the client for its tools: a client that
    // never connects is enough to read its model.
    const redis = new Redis({ lazyConnect: true });
    try {
      return agentModels(demoAgents({ redis, env }), env);
    } finally {
      redis.disconnect();
    }
  }
  const imported = await importAgentModule(agentModule);
  if (imported.agents === undefined) return undefined;
  // What a host checks first (unique names, subagent names free), so dev refuses before any server.
  new AgentRegistry(imported.agents);
  return agentModels(imported.agents, env);
}
