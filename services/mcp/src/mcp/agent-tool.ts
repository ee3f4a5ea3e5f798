import { createHash } from "node:crypto";
import { MCP_IDEMPOTENCY_KEY_META } from "@troupe/agents";
import { isValidActorId } from "@troupe/protocol";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";

/** An agent as `troupe mcp` serves it: its name (the tool's) and a description for the MCP client. */
export interface ServedAgent {
  readonly name: string;
  readonly description: string;
}

/** The arguments of an agent's tool, checked. */
export interface AgentToolArguments {
  /** The user's message to the agent. */
  readonly message: string;
  /** The session to continue; absent: a new session. */
  readonly sessionId?: string;
}

/** Longest description taken from an agent's instructions, in characters. */
const MAX_DESCRIPTION_CHARS = 300;

/**
 * How `troupe mcp` describes an agent: its name, and the first line of its
 * instructions (cut after the first sentence when that line is long), e.g.
 * `demo` → "You are the Troupe demo agent."
 *
 * @param agent - `{ name, instructions }` of an agent definition.
 */
export function servedAgentOf(agent: {
  readonly name: string;
  readonly instructions: string;
}): ServedAgent {
  const firstLine = agent.instructions.trim().split("\n")[0]!.trim();
  let description = firstLine;
  if (description.length > MAX_DESCRIPTION_CHARS) {
    const sentence = /^.*?[.!?](?=\s|$)/.exec(description)?.[0];
    description =
      sentence !== undefined && sentence.length <= MAX_DESCRIPTION_CHARS
        ? sentence
        : `${description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…`;
  }
  return { name: agent.name, description };
}

/**
 * The MCP tool of an agent (docs/decisions/0025): named after the agent, input
 * `{ message: string, sessionId?: string }`, output
 * `{ answer, state, sessionId, taskId, runId? }` (`structuredContent`),
 * task support `optional` (a call with `task` returns at once, see
 * `TroupeMcpServer`).
 *
 * @param agent - the served agent.
 * @returns the tool as `tools/list` lists it.
 */
export function agentTool(agent: ServedAgent): Tool {
  return {
    name: agent.name,
    title: `Troupe agent ${agent.name}`,
    description:
      `${agent.description} Sends the message to a session of the Troupe agent "${agent.name}" ` +
      "and returns its answer; give sessionId (from a previous answer) to continue that conversation.",
    inputSchema: {
      type: "object",
      properties: {
        message: { type: "string", minLength: 1, description: "The message to the agent." },
        sessionId: {
          type: "string",
          pattern: "^[A-Za-z0-9_-]{1,128}$",
          description:
            "The session to continue (from an earlier answer); a new session without it.",
        },
      },
      required: ["message"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        answer: { type: "string", description: "The run's answer (partial when cancelled)." },
        state: { type: "string", enum: ["completed", "failed", "cancelled"] },
        sessionId: { type: "string" },
        taskId: { type: "string" },
        runId: { type: "string" },
      },
      required: ["answer", "state", "sessionId", "taskId"],
    },
    execution: { taskSupport: "optional" },
  };
}

/**
 * Checks the arguments of an agent's tool call.
 *
 * @param value - `params.arguments` of `tools/call`.
 * @returns the message and the session id, if given.
 * @throws McpError `InvalidParams` (-32602) naming the bad field: no or a blank
 *   `message`, a `sessionId` that is not 1 to 128 of `[A-Za-z0-9_-]`, an unknown field.
 */
export function parseAgentToolArguments(value: unknown): AgentToolArguments {
  const fields = (typeof value === "object" && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  const message = fields["message"];
  if (typeof message !== "string" || message.trim() === "") {
    throw new McpError(ErrorCode.InvalidParams, "message must be a non-empty string.");
  }
  const sessionId = fields["sessionId"];
  if (sessionId !== undefined && (typeof sessionId !== "string" || !isValidActorId(sessionId))) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `sessionId ${JSON.stringify(sessionId)} is not a session id: use 1 to 128 of A-Z, a-z, 0-9, "_" and "-".`,
    );
  }
  const unknown = Object.keys(fields).filter((key) => key !== "message" && key !== "sessionId");
  if (unknown.length > 0) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: the tool takes message and sessionId.`,
    );
  }
  return { message, ...(sessionId === undefined ? {} : { sessionId }) };
}

/**
 * Where a `tools/call` that carries an idempotency key in its `_meta`
 * (`dev.troupe/idempotency-key`, what a Troupe host sends to every MCP tool)
 * goes: a client message id derived from the key, and — when the
 * call names no session — a session id derived from it too, so a retried call
 * (the same key) starts no second run and answers with the first run's task.
 *
 * @param meta - the request's `params._meta`.
 * @returns `{ sessionId, clientMessageId }` (`mcp-<40 hex of SHA-256>`), or undefined without a key.
 */
export function idempotentTarget(
  meta: Record<string, unknown> | undefined,
): { sessionId: string; clientMessageId: string } | undefined {
  const key = meta?.[MCP_IDEMPOTENCY_KEY_META];
  if (typeof key !== "string" || key === "") return undefined;
  const id = `mcp-${createHash("sha256").update(key, "utf8").digest("hex").slice(0, 40)}`;
  return { sessionId: id, clientMessageId: id };
}
