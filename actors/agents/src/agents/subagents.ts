import { type ToolDefinition, matchesToolPattern } from "@troupe/tools/internal";
import {
  AGENT_NAME_PATTERN,
  type AgentDefinition,
  type SubagentDefinition,
} from "./agent-definition.js";
import type { AgentIssue } from "./invalid-agent-error.js";

/** Separator of the name under which a host registers a subagent's agent: `<parent>--<subagent>`. */
export const SUBAGENT_NAME_SEPARATOR = "--";

/**
 * Name under which a host registers the agent a subagent runs.
 *
 * @param parent - the delegating agent's name.
 * @param subagent - the subagent's name in the parent's definition.
 * @returns `<parent>--<subagent>`.
 */
export function subagentAgentName(parent: string, subagent: string): string {
  return `${parent}${SUBAGENT_NAME_SEPARATOR}${subagent}`;
}

/**
 * The agent a subagent runs: its agent definition under the derived name, with
 * its tools filtered (deny, then allow) and no subagents of its own — a
 * subagent cannot delegate.
 *
 * @param parent - the delegating agent.
 * @param name - the subagent's name in `parent.subagents`.
 * @param subagent - the subagent.
 */
export function effectiveSubagentAgent(
  parent: AgentDefinition,
  name: string,
  subagent: SubagentDefinition,
): AgentDefinition {
  const tools: Record<string, ToolDefinition> = {};
  for (const [toolName, tool] of Object.entries(subagent.agent.tools)) {
    if (keptBySubagentFilter(subagent.tools, toolName)) tools[toolName] = tool;
  }
  return Object.freeze({
    ...subagent.agent,
    name: subagentAgentName(parent.name, name),
    tools: Object.freeze(tools),
    subagents: Object.freeze({}),
  });
}

/**
 * Whether a subagent's `tools` filter keeps a tool: no `deny` pattern names it
 * and, when `allow` is given, an `allow` pattern does. Applies to the tools of
 * the subagent's MCP servers too.
 *
 * @param filter - the subagent's `tools`.
 * @param toolName - a tool name as the model sees it.
 */
export function keptBySubagentFilter(
  filter: SubagentDefinition["tools"],
  toolName: string,
): boolean {
  if (filter.deny.some((pattern) => matchesToolPattern(pattern, toolName))) return false;
  return (
    filter.allow === undefined ||
    filter.allow.some((pattern) => matchesToolPattern(pattern, toolName))
  );
}

const isPatternList = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.every((item) => typeof item === "string" && item.length > 0 && item.length <= 128);

/**
 * Checks the `subagents` option of `defineAgent`.
 *
 * @param record - the option as given.
 * @param toolNames - the agent's tool names (a subagent may not share one).
 * @returns the validated subagents and the problems found.
 */
export function toSubagentRecord(
  record: unknown,
  toolNames: readonly string[],
): { subagents: Record<string, SubagentDefinition>; issues: AgentIssue[] } {
  const subagents: Record<string, SubagentDefinition> = {};
  const issues: AgentIssue[] = [];
  if (record === undefined) return { subagents, issues };
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return {
      subagents,
      issues: [{ path: ["subagents"], message: "must be an object keyed by name" }],
    };
  }
  for (const [name, value] of Object.entries(record as Record<string, unknown>)) {
    const path = ["subagents", name];
    if (!AGENT_NAME_PATTERN.test(name)) {
      issues.push({
        path,
        message: 'names must be 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"',
      });
      continue;
    }
    if (toolNames.includes(name)) {
      issues.push({
        path,
        message: `a tool of the agent is named "${name}" too; names must differ`,
      });
      continue;
    }
    if (typeof value !== "object" || value === null) {
      issues.push({ path, message: "must be { description, agent, tools? }" });
      continue;
    }
    const { description, agent, tools } = value as Record<string, unknown>;
    if (typeof description !== "string" || description.trim() === "") {
      issues.push({ path: [...path, "description"], message: "must be a non-empty string" });
    }
    if (
      typeof agent !== "object" ||
      agent === null ||
      !("instructions" in agent) ||
      !("tools" in agent) ||
      !Object.isFrozen(agent)
    ) {
      issues.push({ path: [...path, "agent"], message: "must be an agent made with defineAgent" });
    }
    const { deny, allow } = (typeof tools === "object" && tools !== null ? tools : {}) as Record<
      string,
      unknown
    >;
    if (tools !== undefined && (typeof tools !== "object" || tools === null)) {
      issues.push({ path: [...path, "tools"], message: "must be { deny?, allow? }" });
    }
    if (deny !== undefined && !isPatternList(deny)) {
      issues.push({
        path: [...path, "tools", "deny"],
        message: "must be a list of tool-name patterns",
      });
    }
    if (allow !== undefined && !isPatternList(allow)) {
      issues.push({
        path: [...path, "tools", "allow"],
        message: "must be a list of tool-name patterns",
      });
    }
    if (issues.length > 0) continue;
    subagents[name] = Object.freeze({
      description: description as string,
      agent: agent as AgentDefinition,
      tools: Object.freeze({
        deny: Object.freeze([...((deny as string[] | undefined) ?? [])]),
        allow: allow === undefined ? undefined : Object.freeze([...(allow as string[])]),
      }),
    });
  }
  return { subagents, issues };
}
