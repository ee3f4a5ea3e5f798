import { DEMO_AGENT_MODULE } from "./demo-agent-module.js";
import type { AgentDefinition } from "@troupe/agents";
import type { Redis } from "ioredis";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { demoAgents } from "../demo/demo-agents.js";
import { AgentModuleError } from "./agent-module-error.js";

/** What an agent module's factory receives. */
export interface AgentModuleContext {
  /** A Redis connection the agent's tools may use (closed when the host stops). */
  readonly redis: Redis;
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** Writes one line to the host's log (stderr). */
  readonly log: (line: string) => void;
}

/** What an agent module may export (as `default` or `agents`). */
export type AgentModuleExport =
  | AgentDefinition
  | readonly AgentDefinition[]
  | ((context: AgentModuleContext) => AgentDefinition | readonly AgentDefinition[])
  | ((context: AgentModuleContext) => Promise<AgentDefinition | readonly AgentDefinition[]>);

/**
 * An agent module, imported: the agents when it exports them as values
 * (`agents`), and how to get them in any case (`load`, which calls an exported
 * factory with its context).
 */
export interface ImportedAgentModule {
  /** The agents, when the module exports agents rather than a factory; checked. */
  readonly agents: readonly AgentDefinition[] | undefined;
  /**
   * The agents, calling the factory with `context` when the module exports one.
   *
   * @throws AgentModuleError when the factory returns something else than agents.
   */
  load(context: AgentModuleContext): Promise<AgentDefinition[]>;
}

/**
 * Imports a module given to `troupe host --agent` / `troupe dev --agent` and
 * checks its export, without calling a factory: `troupe dev` does this before
 * starting anything, so a bad module is one error (docs/decisions/0019).
 *
 * @param specifier - module path (relative to the working directory) or package name.
 * @returns the imported module.
 * @throws AgentModuleError when the module cannot be imported, exports neither
 *   `default` nor `agents`, or exports values that are not agents.
 */
export async function importAgentModule(specifier: string): Promise<ImportedAgentModule> {
  const url =
    specifier.startsWith(".") || isAbsolute(specifier)
      ? pathToFileURL(resolve(specifier)).href
      : specifier;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    // The import error is chained, not pasted in; the CLI prints the chain once.
    throw new AgentModuleError(specifier, "cannot be imported", { cause: error });
  }
  loaded = moduleExports(loaded);
  const exported = loaded["default"] ?? loaded["agents"];
  if (exported === undefined) {
    throw new AgentModuleError(
      specifier,
      `exports neither "default" nor "agents" (found: ${Object.keys(loaded).join(", ") || "nothing"})`,
    );
  }
  if (typeof exported === "function") {
    return { agents: undefined, load: (context) => agentsOfExport(exported, context, specifier) };
  }
  const agents = checkedAgents(specifier, exported);
  return { agents, load: () => Promise.resolve(agents) };
}

/**
 * Loads the agents of a module given to `troupe host --agent` / `troupe dev
 * --agent`. The module (TypeScript or JavaScript; a path, relative to the
 * working directory, or a package name) exports as `default` or as `agents`
 * either agents made with `defineAgent`, an array of them, or a function
 * (possibly async) of {@link AgentModuleContext} returning either.
 *
 * @param specifier - module path or package name.
 * @param context - what a factory receives.
 * @returns the agents, at least one.
 * @throws AgentModuleError when the module cannot be imported or exports no agents.
 * @example
 * // my-agent.ts
 * export default defineAgent({ name: "support", instructions: "…", model: "openai:gpt-4.1-mini" });
 */
export async function loadAgents(
  specifier: string,
  context: AgentModuleContext,
): Promise<AgentDefinition[]> {
  return (await importAgentModule(specifier)).load(context);
}

/**
 * The exports of an imported module. A TypeScript module in a CommonJS package
 * (`"type": "commonjs"`, what `npm init -y` writes) is compiled by tsx to
 * CommonJS; importing it gives `{ default: module.exports }`, whose own
 * `default`/`agents` are what the module exported (marked `__esModule`).
 */
function moduleExports(loaded: Record<string, unknown>): Record<string, unknown> {
  const commonJs = loaded["default"];
  if (typeof commonJs === "object" && commonJs !== null && "__esModule" in commonJs) {
    return commonJs;
  }
  return loaded;
}

/**
 * The agents of what an agent module exports ({@link AgentModuleExport}): the
 * value itself, or what its factory returns for `context`.
 *
 * @param exported - an agent, an array of agents, or a (possibly async) factory.
 * @param context - what a factory receives.
 * @param specifier - names the source in the error.
 * @returns the agents, at least one.
 * @throws AgentModuleError when the value (or the factory's result) holds no agents or
 *   something not made with `defineAgent`.
 */
export async function agentsOfExport(
  exported: unknown,
  context: AgentModuleContext,
  specifier: string,
): Promise<AgentDefinition[]> {
  const value: unknown =
    typeof exported === "function"
      ? await (exported as (context: AgentModuleContext) => unknown)(context)
      : exported;
  return checkedAgents(specifier, value);
}

function checkedAgents(specifier: string, value: unknown): AgentDefinition[] {
  const agents = (Array.isArray(value) ? value : [value]) as unknown[];
  const invalid = agents.filter((agent) => !isAgent(agent));
  if (agents.length === 0 || invalid.length > 0) {
    throw new AgentModuleError(
      specifier,
      "must export agents made with defineAgent (an agent, an array, or a function returning them)",
    );
  }
  return agents as AgentDefinition[];
}

function isAgent(value: unknown): value is AgentDefinition {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<AgentDefinition>;
  return (
    typeof candidate.name === "string" &&
    typeof candidate.instructions === "string" &&
    typeof candidate.tools === "object"
  );
}

export { DEMO_AGENT_MODULE };

/**
 * The agents of `troupe host --agent`, `troupe dev --agent` and `troupe replay
 * --agent`: {@link DEMO_AGENT_MODULE} is the built-in demo agent, anything else
 * a module for {@link loadAgents}.
 *
 * @throws AgentModuleError as {@link loadAgents}.
 */
export async function loadAgentModule(
  specifier: string,
  context: AgentModuleContext,
): Promise<AgentDefinition[]> {
  return specifier === DEMO_AGENT_MODULE
    ? demoAgents(context)
    : await loadAgents(specifier, context);
}
