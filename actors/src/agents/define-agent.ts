import { ASK_USER_TOOL, DEFAULT_APPROVAL_TIMEOUT_MS } from "@troupe/machines";
import { type SessionPolicy, type ToolPolicy, sessionPolicySchema } from "@troupe/protocol";
import { z } from "zod";
import { parseModelSpec } from "../models/model-spec.js";
import type { ModelSpec } from "../models/resolve-model.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { type ToolsOption, toToolRecord } from "../tools/tool-record.js";
import { type AgentIssue, InvalidAgentError } from "./invalid-agent-error.js";
import { type SubagentDefinition, type SubagentOptions, toSubagentRecord } from "./subagents.js";

/** Agent, tool and subagent names: 1 to 64 characters from `A-Z a-z 0-9 _ -` (safe in subjects and for providers). */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Default model calls per run: the run machine's (`@troupe/machines`). */
export { DEFAULT_MAX_MODEL_CALLS } from "@troupe/machines";
import { DEFAULT_MAX_MODEL_CALLS } from "@troupe/machines";

const nameSchema = z
  .string()
  .regex(AGENT_NAME_PATTERN, 'must be 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"');

/**
 * The plain (serialisable) parts of an agent definition; `model`, `tools` and
 * `subagents` are checked beside it.
 *
 * Shape: `{ name, instructions, limits: { maxModelCalls }, settings: { policy }, toolPolicy: { allow, ask, deny }, approvalTimeoutMs }`.
 */
export const agentPlainPartsSchema = z.object({
  name: nameSchema,
  instructions: z.string().min(1, "must not be empty"),
  limits: z
    .strictObject({ maxModelCalls: z.number().int().min(1).default(DEFAULT_MAX_MODEL_CALLS) })
    .prefault({}),
  settings: z.strictObject({ policy: sessionPolicySchema.default("enqueue") }).prefault({}),
  toolPolicy: z
    .strictObject({
      allow: z.array(z.string().min(1).max(128)).default([]),
      ask: z.array(z.string().min(1).max(128)).default([]),
      deny: z.array(z.string().min(1).max(128)).default([]),
    })
    .prefault({}),
  approvalTimeoutMs: z.number().int().min(1).default(DEFAULT_APPROVAL_TIMEOUT_MS),
});

/** What `defineAgent` takes; see {@link defineAgent}. */
export interface AgentOptions {
  /** Unique name among the agents of a host; sessions name their agent with it. */
  readonly name: string;
  /** The system instructions of every model call. */
  readonly instructions: string;
  /** Model spec string or AI SDK model; default: the session's model, then `TROUPE_MODEL`, then the scripted demo. */
  readonly model?: ModelSpec;
  /** Tools made with `defineTool`: a list, or a record keyed by each tool's name (issue #5). */
  readonly tools?: ToolsOption;
  /**
   * Agents this agent may delegate to, by name: the model calls each as a tool
   * `{ task }` whose result is the subagent's answer. The subagent runs its
   * `agent` with that agent's tools filtered by `tools` (deny, then allow) and
   * cannot delegate further. A subagent call is policy-checked like a `read`
   * tool (allowed unless `toolPolicy` names it).
   */
  readonly subagents?: Readonly<Record<string, SubagentOptions>>;
  /** `maxModelCalls`: model calls per run before a final call without tools (whole, ≥ 1, default 50). */
  readonly limits?: { readonly maxModelCalls?: number };
  /** `policy` for a message that arrives during a run (default `enqueue`). */
  readonly settings?: { readonly policy?: SessionPolicy };
  /**
   * Which tool calls run, wait for approval or are refused: tool-name patterns
   * (`*` = any characters). `deny` > `ask` > `allow`; a tool no pattern names
   * is allowed when its effect class is `read` or `idempotent_write` and asks
   * otherwise. A session may make it safer (`session.configure`), never looser.
   * The built-in `ask_user` is always allowed.
   */
  readonly toolPolicy?: ToolPolicy;
  /** How long a call that asks waits for `tool.approve` / `tool.deny` before it counts as denied (ms, default 24 h). */
  readonly approvalTimeoutMs?: number;
}

/** A validated agent, with every default filled in. Frozen. */
export interface AgentDefinition {
  readonly name: string;
  readonly instructions: string;
  /** Undefined = the session's model, then `TROUPE_MODEL`, then the scripted demo. */
  readonly model: ModelSpec | undefined;
  /** The agent's tools keyed by name (frozen; empty when none). */
  readonly tools: Readonly<Record<string, ToolDefinition>>;
  readonly subagents: Readonly<Record<string, SubagentDefinition>>;
  readonly limits: { readonly maxModelCalls: number };
  readonly settings: { readonly policy: SessionPolicy };
  readonly toolPolicy: {
    readonly allow: readonly string[];
    readonly ask: readonly string[];
    readonly deny: readonly string[];
  };
  readonly approvalTimeoutMs: number;
}

/**
 * Defines an agent: its instructions, model, tools, subagents, limits and
 * session settings. Checks everything up front (the model spec's form too, but
 * not its API key, which is read when a call is made), so a host refuses a bad
 * definition at startup.
 *
 * @param options - see {@link AgentOptions}.
 * @returns the frozen {@link AgentDefinition} with defaults filled in.
 * @throws InvalidAgentError listing every problem (bad name, empty instructions,
 *   malformed model spec, bad limit, unknown setting, a tool not made with
 *   `defineTool`, duplicate tool names, …).
 * @example
 * ```ts
 * const assistant = defineAgent({
 *   name: "assistant",
 *   instructions: "You are a helpful assistant. Answer briefly.",
 *   model: "openai:gpt-4o-mini",
 *   tools: [getWeather], // made with defineTool
 *   limits: { maxModelCalls: 20 },
 *   settings: { policy: "interrupt" },
 * });
 * ```
 */
export function defineAgent(options: AgentOptions): AgentDefinition {
  const issues: AgentIssue[] = [];
  const plain = agentPlainPartsSchema.safeParse({
    name: options.name,
    instructions: options.instructions,
    limits: options.limits,
    settings: options.settings,
    toolPolicy: options.toolPolicy,
    approvalTimeoutMs: options.approvalTimeoutMs,
  });
  if (!plain.success) {
    for (const issue of plain.error.issues) {
      issues.push({
        path: issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)),
        message: issue.message,
      });
    }
  }
  issues.push(...modelIssues(options.model));
  const tools = toToolRecord(options.tools);
  const subagents = toSubagentRecord(options.subagents, Object.keys(tools.tools));
  issues.push(...tools.issues, ...subagents.issues);
  if (Object.hasOwn(subagents.subagents, ASK_USER_TOOL)) {
    issues.push({
      path: ["subagents", ASK_USER_TOOL],
      message: `"${ASK_USER_TOOL}" is the built-in tool every agent has; choose another name`,
    });
  }
  if (Object.hasOwn(tools.tools, ASK_USER_TOOL)) {
    issues.push({
      path: ["tools", ASK_USER_TOOL],
      message: `"${ASK_USER_TOOL}" is the built-in tool every agent has; choose another name`,
    });
  }
  const name = typeof options.name === "string" ? options.name : undefined;
  if (!plain.success || issues.length > 0) throw new InvalidAgentError(name, issues);
  return Object.freeze({
    ...plain.data,
    model: options.model,
    tools: tools.tools,
    subagents: Object.freeze(subagents.subagents),
  });
}

function modelIssues(model: unknown): AgentIssue[] {
  if (model === undefined) return [];
  if (typeof model === "string") {
    try {
      parseModelSpec(model);
      return [];
    } catch (error) {
      return [{ path: ["model"], message: (error as Error).message }];
    }
  }
  if (
    typeof model === "object" &&
    model !== null &&
    "doStream" in model &&
    typeof model.doStream === "function" &&
    "specificationVersion" in model &&
    typeof model.specificationVersion === "string"
  ) {
    return [];
  }
  return [{ path: ["model"], message: "must be a model spec string or an AI SDK language model" }];
}
