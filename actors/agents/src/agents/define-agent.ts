import {
  ASK_USER_TOOL,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_MODEL_CALLS,
} from "@troupe/machines";
import { MAX_MODEL_CHAIN_LENGTH, sessionPolicySchema } from "@troupe/protocol";
import { z } from "zod";
import {
  parseMcpServers,
  toToolRecord,
  mediaTypePatternSchema,
  DEFAULT_ACCEPTED_MEDIA_TYPES,
} from "@troupe/tools/internal";
import { parseModelSpec, type ModelSpec, budgetOptionsSchema } from "@troupe/models";
import { type AgentIssue, InvalidAgentError } from "./invalid-agent-error.js";
import { AGENT_NAME_PATTERN, type AgentDefinition, type AgentOptions } from "./agent-definition.js";
import { toSubagentRecord } from "./subagents.js";
import { contextOptionsSchema } from "./context-budget.js";

/** Default model calls per run: the run machine's (`@troupe/machines`). */
export { DEFAULT_MAX_MODEL_CALLS } from "@troupe/machines";

/** Default longest wait for the first and each next piece of a model call's output: 60 s (docs/decisions/0011). */
export const DEFAULT_MODEL_IDLE_TIMEOUT_MS = 60_000;
/** Default longest time for one model call: 10 min (docs/decisions/0011). */
export const DEFAULT_MODEL_CALL_TIMEOUT_MS = 600_000;
/** Largest timeout `setTimeout` honours (2^31 − 1 ms, about 24.8 days); longer ones would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const timeoutSchema = (fallback: number) =>
  z.number().int().min(1).max(MAX_TIMEOUT_MS).default(fallback);

const nameSchema = z
  .string()
  .regex(AGENT_NAME_PATTERN, 'must be 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"');

/**
 * The plain (serialisable) parts of an agent definition; `model`, `tools` and
 * `subagents` are checked beside it.
 *
 * Shape: `{ name, instructions, limits: { maxModelCalls, modelIdleTimeoutMs, modelCallTimeoutMs, maxConcurrentModelCalls?, budget? }, settings: { policy }, toolPolicy: { allow, ask, deny }, approvalTimeoutMs, version? }` (`mcpServers` is checked by `parseMcpServers`).
 */
export const agentPlainPartsSchema = z.object({
  name: nameSchema,
  instructions: z.string().min(1, "must not be empty"),
  limits: z
    .strictObject({
      maxModelCalls: z.number().int().min(1).default(DEFAULT_MAX_MODEL_CALLS),
      modelIdleTimeoutMs: timeoutSchema(DEFAULT_MODEL_IDLE_TIMEOUT_MS),
      modelCallTimeoutMs: timeoutSchema(DEFAULT_MODEL_CALL_TIMEOUT_MS),
      maxConcurrentModelCalls: z
        .number()
        .int()
        .min(1)
        .max(2 ** 31 - 1)
        .optional(),
      budget: budgetOptionsSchema.optional(),
    })
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
  version: z.string().min(1).max(64).optional(),
  migrate: z
    .strictObject({
      from: z
        .array(z.string().min(1).max(64))
        .min(1, "must name at least one version")
        .max(64)
        .refine((versions) => new Set(versions).size === versions.length, "names a version twice"),
    })
    .optional(),
  media: z.strictObject({ accepts: z.array(mediaTypePatternSchema).max(64) }).optional(),
});

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
 *   limits: { maxModelCalls: 20, modelIdleTimeoutMs: 30_000 },
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
    version: options.version,
    migrate: options.migrate,
    media:
      options.media === undefined
        ? undefined
        : { accepts: options.media.accepts ?? [...DEFAULT_ACCEPTED_MEDIA_TYPES] },
  });
  if (!plain.success) {
    for (const issue of plain.error.issues) {
      issues.push({
        path: issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)),
        message: issue.message,
      });
    }
  }
  issues.push(...migrateIssues(options));
  issues.push(...modelIssues(options.model));
  issues.push(...contextIssues(options.context));
  const mcpServers = parseMcpServers(options.mcpServers);
  issues.push(...mcpServers.issues);
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
    version: plain.data.version,
    mcpServers: Object.freeze(mcpServers.servers),
    ...modelChainParts(options.model),
    tools: tools.tools,
    subagents: Object.freeze(subagents.subagents),
    ...(options.context === undefined ? {} : { context: Object.freeze({ ...options.context }) }),
  });
}

/**
 * Problems of `options.migrate` beyond its shape (docs/decisions/0055): a
 * migration needs the agent's own `version`, and cannot name it.
 */
function migrateIssues(options: AgentOptions): AgentIssue[] {
  const from = options.migrate?.from;
  if (!Array.isArray(from)) return [];
  if (options.version === undefined) {
    return [
      {
        path: ["migrate"],
        message: "a migration moves runs onto this agent's version: declare `version` too",
      },
    ];
  }
  return from.includes(options.version)
    ? [
        {
          path: ["migrate", "from"],
          message: `names the agent's own version "${options.version}"; list the earlier versions whose runs move onto it`,
        },
      ]
    : [];
}

/** `model` (the primary) and `fallbackModels` of a definition, from the `model` option. */
function modelChainParts(
  model: AgentOptions["model"],
): Pick<AgentDefinition, "model" | "fallbackModels"> {
  if (!isModelList(model)) return { model };
  const [primary, ...fallbacks] = model;
  return {
    model: primary,
    ...(fallbacks.length === 0 ? {} : { fallbackModels: Object.freeze([...fallbacks]) }),
  };
}

function isModelList(model: unknown): model is readonly ModelSpec[] {
  return Array.isArray(model);
}

/**
 * Problems of `options.context` (docs/capabilities/compaction.md): whole token counts ≥ 1, a valid
 * compaction model.
 */
function contextIssues(context: unknown): AgentIssue[] {
  const parsed = contextOptionsSchema.safeParse(context);
  const issues: AgentIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        path: [
          "context",
          ...issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)),
        ],
        message: issue.message,
      }));
  const model = parsed.success ? parsed.data?.compactionModel : undefined;
  for (const issue of modelIssues(model)) {
    issues.push({ path: ["context", "compactionModel"], message: issue.message });
  }
  return issues;
}

function modelIssues(model: unknown): AgentIssue[] {
  if (isModelList(model)) {
    if (model.length === 0 || model.length > MAX_MODEL_CHAIN_LENGTH) {
      return [
        {
          path: ["model"],
          message: `a fallback chain holds 1 to ${MAX_MODEL_CHAIN_LENGTH} models; got ${model.length}`,
        },
      ];
    }
    return model.flatMap((entry, index) =>
      modelIssues(entry).map((issue) => ({ ...issue, path: ["model", index] })),
    );
  }
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
