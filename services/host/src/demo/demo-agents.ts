import { defineAgent, ScriptedModel, type AgentDefinition, type ModelSpec } from "@troupe/agents";
import type { Redis } from "ioredis";
import { clockTool } from "./clock-tool.js";
import { demoMcpServers } from "./demo-mcp-servers.js";
import { RESEARCHER_SUBAGENT, demoAgentScript } from "./demo-agent-script.js";
import { saveNoteTool } from "./save-note-tool.js";
import { sendEmailTool } from "./send-email-tool.js";

/** Name of the demo agent. */
export const DEMO_AGENT_NAME = "demo";

/** What the demo agent's tools need. */
export interface DemoAgentsContext {
  /** Redis for `save_note` (hash `troupe:demo:notes:<sessionId>`) and `send_email` (list `troupe:demo:outbox`). */
  readonly redis: Redis;
  /** Receives `send_email`'s one line per email; default: standard error. */
  readonly log?: ((line: string) => void) | undefined;
  /** The current time, Unix ms, for `clock` and the outbox; default `Date.now`. */
  readonly nowMs?: (() => number) | undefined;
  /** Where `TROUPE_MODEL` and `TROUPE_DEMO_MCP_SERVERS` are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

const INSTRUCTIONS = [
  "You are the Troupe demo agent. Answer briefly and in a friendly tone.",
  "Use the clock tool for questions about the time (IANA time zones, UTC by default),",
  "save_note to remember things the user asks you to note, and send_email to send an",
  "email (the user approves each email first). Ask the researcher subagent when the user asks for it.",
  "After a tool call, say in one sentence what happened.",
].join(" ");

const RESEARCHER_INSTRUCTIONS = [
  "You are the researcher of the Troupe demo agent. Do the task you are given with your tools",
  "(the clock: IANA time zones, UTC by default) and answer in one sentence.",
].join(" ");

/**
 * The agents of `troupe dev`: one agent, `demo`, with three tools —
 * `clock` (`read`), `save_note` (`idempotent_write`) and `send_email`
 * (`non_idempotent_write`, so the default policy asks the user to approve each
 * call; it only writes to an outbox in Redis) — and one subagent,
 * `researcher`, whose agent has only the `clock` (a conversation
 * with a tool call, an approval and a subagent to record as a fixture).
 *
 * Model: `TROUPE_MODEL` when set (e.g. `openai:gpt-4o-mini`); otherwise — and
 * for `scripted` / `scripted:demo` — a `ScriptedModel` playing
 * {@link demoAgentScript}, which turns plain English into these tool calls.
 *
 * MCP servers: those of `TROUPE_DEMO_MCP_SERVERS` (JSON of
 * `mcpServers`; what `troupe dev --mcp <name>=<command line>` sets), their
 * tools offered as `<name>__<tool>` beside the demo's own.
 *
 * @param context - see {@link DemoAgentsContext}.
 * @returns `[demo]`.
 * @throws InvalidAgentError when `TROUPE_MODEL` or an MCP server entry is malformed.
 * @throws TroupeError (code `invalid_options`) when `TROUPE_DEMO_MCP_SERVERS` is not a JSON object.
 * @example
 * ```ts
 * const agents = new AgentRegistry(demoAgents({ redis }), { defaultAgent: "demo" });
 * ```
 */
export function demoAgents(context: DemoAgentsContext): AgentDefinition[] {
  const env = context.env ?? process.env;
  const model = demoModel(env);
  const researcher = defineAgent({
    name: RESEARCHER_SUBAGENT,
    instructions: RESEARCHER_INSTRUCTIONS,
    model,
    tools: [clockTool(context.nowMs)],
  });
  return [
    defineAgent({
      name: DEMO_AGENT_NAME,
      instructions: INSTRUCTIONS,
      model,
      subagents: {
        [RESEARCHER_SUBAGENT]: {
          description:
            "A researcher with a clock: give it a task such as finding the time in a city; it answers in one sentence.",
          agent: researcher,
        },
      },
      tools: [
        clockTool(context.nowMs),
        saveNoteTool(context.redis),
        sendEmailTool({ redis: context.redis, log: context.log, nowMs: context.nowMs }),
      ],
      mcpServers: demoMcpServers(env),
    }),
  ];
}

/**
 * The demo agent's model: the `TROUPE_MODEL` spec when set and not `scripted` /
 * `scripted:demo`, else a `ScriptedModel` of {@link demoAgentScript}.
 *
 * @param env - environment variables.
 */
export function demoModel(env: Readonly<Record<string, string | undefined>>): ModelSpec {
  const spec = env["TROUPE_MODEL"]?.trim() ?? "";
  if (spec !== "" && spec !== "scripted" && spec !== "scripted:demo") return spec;
  return new ScriptedModel(demoAgentScript, { modelId: "demo-agent" });
}
