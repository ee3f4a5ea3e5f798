import { type ToolDefinition, TOOL_NAME_PATTERN, isToolDefinition } from "./define-tool.js";

/** Tools as an agent definition takes them: a list, or a record keyed by each tool's name. */
export type ToolsOption = readonly ToolDefinition[] | Readonly<Record<string, ToolDefinition>>;

/** One problem found by {@link toToolRecord}; `path` starts with `"tools"`. */
export interface ToolRecordIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * Normalises an agent's tools to a record keyed by tool name, checking that
 * every entry is a tool made with `defineTool`, that names are unique and that
 * a record's keys are the tools' names (the model calls a tool by its name).
 * Reports at most one problem per entry.
 *
 * @param tools - a list or a record of tools, or undefined (no tools).
 * @returns the frozen record and the problems found (empty when none).
 * @example
 * toToolRecord([getWeather]).tools // { get_weather: getWeather }
 */
export function toToolRecord(tools: unknown): {
  tools: Readonly<Record<string, ToolDefinition>>;
  issues: ToolRecordIssue[];
} {
  const record: Record<string, ToolDefinition> = {};
  const issues: ToolRecordIssue[] = [];
  if (tools === undefined) return { tools: Object.freeze(record), issues };
  if (typeof tools !== "object" || tools === null) {
    issues.push({ path: ["tools"], message: "must be a list of tools or an object keyed by name" });
    return { tools: Object.freeze(record), issues };
  }
  const entries: [string | number, unknown][] = Array.isArray(tools)
    ? tools.map((tool: unknown, index) => [index, tool])
    : Object.entries(tools);
  for (const [key, tool] of entries) {
    const path = ["tools", key];
    if (typeof key === "string" && !TOOL_NAME_PATTERN.test(key)) {
      issues.push({
        path,
        message: 'names must be 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"',
      });
    } else if (!isToolDefinition(tool)) {
      issues.push({ path, message: "must be a tool made with defineTool" });
    } else if (typeof key === "string" && key !== tool.name) {
      issues.push({ path, message: `the key must be the tool's name ("${tool.name}")` });
    } else if (Object.hasOwn(record, tool.name)) {
      issues.push({ path, message: `two tools are named "${tool.name}"; names must be unique` });
    } else {
      record[tool.name] = tool;
    }
  }
  return { tools: Object.freeze(record), issues };
}
