import { ASK_USER_TOOL } from "@troupe/machines";
import type { ModelToolCall, ToolPolicyOverrides } from "@troupe/protocol";
import {
  type JSONSchema7,
  type ModelMessage,
  type Tool,
  type ToolSet,
  asSchema,
  jsonSchema,
  tool,
} from "ai";
import { z } from "zod";
import { type ToolDefinition, type ToolEffectClass, decideToolCall } from "@troupe/tools/internal";
import type { AgentDefinition, SubagentDefinition } from "./agent-definition.js";
import { subagentAgentName } from "./subagents.js";

/** A tool call as it streamed: the arguments as the raw JSON text. */
export interface StreamedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments JSON text as the model wrote it (re-serialised when the AI SDK parsed it). */
  readonly input: string;
}

const modelTools = new WeakMap<ToolDefinition, Tool>();

/**
 * The AI SDK tool of a tool definition: description and the JSON schema of its
 * zod input schema, **without `execute`**, so `streamText` ends the step and
 * returns the calls (tools are run by the `tool.execute` effect, behind idempotency records), and
 * **without validation**, so the calls keep the model's arguments as written
 * (they are validated by the handler, which tells the model what is wrong).
 *
 * @param definition - a tool made with `defineTool`.
 * @returns the AI SDK tool (cached per definition).
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/tool
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/json-schema
 */
export function toModelTool(definition: ToolDefinition): Tool {
  let cached = modelTools.get(definition);
  if (cached === undefined) {
    cached = tool({
      description: definition.description,
      inputSchema: jsonSchema(
        () =>
          (definition.inputJsonSchema as JSONSchema7 | undefined) ??
          asSchema(definition.inputSchema).jsonSchema,
      ),
    });
    modelTools.set(definition, cached);
  }
  return cached;
}

/** Input schema of a subagent's tool. */
export const subagentInputSchema = z.object({
  task: z
    .string()
    .min(1)
    .describe("The task for the subagent, with everything it needs to know to do it."),
});

const subagentTools = new WeakMap<SubagentDefinition, Tool>();

/**
 * The AI SDK tool the parent's model calls to delegate to a subagent: the
 * subagent's description and `{ task: string }`, without `execute` (the tool
 * call actor hands the task to the subagent's session).
 *
 * @param subagent - a subagent of the agent.
 * @returns the AI SDK tool (cached per subagent).
 */
export function toSubagentModelTool(subagent: SubagentDefinition): Tool {
  let cached = subagentTools.get(subagent);
  if (cached === undefined) {
    cached = tool({
      description: subagent.description,
      inputSchema: jsonSchema(() => asSchema(subagentInputSchema).jsonSchema),
    });
    subagentTools.set(subagent, cached);
  }
  return cached;
}

/** Input schema of the built-in `ask_user` tool. */
export const askUserInputSchema = z.object({
  question: z.string().min(1).describe("The question for the user, as one clear sentence."),
});

/**
 * The built-in `ask_user` tool every agent has (effect class `read`): the
 * call publishes `question.asked` and its result is the user's answer
 * (`question.answer`); the tool call actor handles it, no `execute` runs.
 */
export const askUserModelTool: Tool = tool({
  description:
    "Ask the user a question and wait for the answer. Use it when you need information " +
    "only the user has; the result is the user's answer as text.",
  inputSchema: jsonSchema(() => asSchema(askUserInputSchema).jsonSchema),
});

/**
 * The `tools` / `toolChoice` settings of a model call.
 *
 * - a normal call: every tool of the agent, then the built-in `ask_user`;
 * - a call `withoutTools` (the run reached `maxModelCalls`): none — unless the
 *   prompt holds tool calls or results, in which case the tools are sent with
 *   `toolChoice: "none"`, because some providers refuse tool parts in a request
 *   that defines no tools (Anthropic, Bedrock).
 *
 * @param agent - the agent answering.
 * @param withoutTools - the model-call input's flag.
 * @param messages - the prompt's messages.
 * @see https://github.com/anthropics/anthropic-sdk-python/issues/494 — "Requests which include tool_use or tool_result blocks must define tools."
 */
export function modelToolSettings(
  agent: AgentDefinition,
  withoutTools: boolean,
  messages: readonly ModelMessage[],
): { tools?: ToolSet; toolChoice?: "none" } {
  const names = Object.keys(agent.tools);
  if (withoutTools && !messages.some(hasToolParts)) return {};
  const tools: ToolSet = {};
  for (const name of names) tools[name] = toModelTool(agent.tools[name]!);
  for (const [name, subagent] of Object.entries(agent.subagents)) {
    tools[name] = toSubagentModelTool(subagent);
  }
  tools[ASK_USER_TOOL] = askUserModelTool;
  return withoutTools ? { tools, toolChoice: "none" } : { tools };
}

/**
 * The tool calls of a model-call result, each with the effect class of its
 * tool (`unclassified` for a name the agent does not have; `read` for
 * `ask_user`) and the tool policy's decision: the agent's `toolPolicy` made
 * safer by the session's `overrides` (see `decideToolCall`); `ask_user` is
 * always allowed, and so is a tool the agent does not have (it fails at once
 * with the list of tools, without running anything). A call that asks carries the agent's `approvalTimeoutMs`.
 *
 * @param calls - the calls as they streamed.
 * @param agent - the agent answering.
 * @param overrides - the session's tool policy overrides (`model.call` input).
 */
export function withPolicyDecisions(
  calls: readonly StreamedToolCall[],
  agent: AgentDefinition,
  overrides?: ToolPolicyOverrides,
): ModelToolCall[] {
  return calls.map((call) => {
    const effectClass = effectClassOf(agent, call.toolName);
    if (call.toolName === ASK_USER_TOOL) return { ...call, effectClass, decision: "allow" };
    const subagent = Object.hasOwn(agent.subagents, call.toolName)
      ? { subagent: subagentAgentName(agent.name, call.toolName) }
      : {};
    // A name the agent does not have runs nothing: the tool.execute handler
    // answers at once with the tools there are. Asking a human first would
    // only make them approve an error.
    const known = Object.hasOwn(agent.tools, call.toolName) || subagent.subagent !== undefined;
    const decision = known
      ? decideToolCall({
          policy: agent.toolPolicy,
          overrides,
          toolName: call.toolName,
          effectClass,
        })
      : "allow";
    return {
      ...call,
      effectClass,
      ...subagent,
      decision,
      ...(decision === "ask" ? { approvalTimeoutMs: agent.approvalTimeoutMs } : {}),
    };
  });
}

// A subagent call is ordered and policy-checked like a read: it changes
// nothing outside its own session (its tools are checked in that session).
function effectClassOf(agent: AgentDefinition, toolName: string): ToolEffectClass {
  if (toolName === ASK_USER_TOOL || Object.hasOwn(agent.subagents, toolName)) return "read";
  return Object.hasOwn(agent.tools, toolName)
    ? (agent.tools[toolName]?.effectClass ?? "unclassified")
    : "unclassified";
}

function hasToolParts(message: ModelMessage): boolean {
  if (message.role === "tool") return true;
  return (
    message.role === "assistant" &&
    typeof message.content !== "string" &&
    message.content.some((part) => part.type === "tool-call")
  );
}
