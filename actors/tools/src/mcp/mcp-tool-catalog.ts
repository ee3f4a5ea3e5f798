import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { z } from "zod";
import { type ToolDefinition, TOOL_NAME_PATTERN, defineTool } from "../tools/define-tool.js";
import { mcpToolEffectClass } from "./mcp-effect-class.js";
import { McpServerConnection } from "./mcp-server-connection.js";
import {
  MCP_EXECUTION_ATTEMPT_META,
  MCP_IDEMPOTENCY_KEY_META,
  MCP_TOOL_NAME_SEPARATOR,
  type McpServerDefinition,
} from "./mcp-server-options.js";
import { mcpToolResult } from "./mcp-tool-result.js";

/** What the catalog needs of an agent: its MCP servers by name. */
export interface McpServersOf {
  readonly name: string;
  readonly mcpServers: Readonly<Record<string, McpServerDefinition>>;
}

/** A server's connection and the tool definitions made from its last tool list. */
interface ServerEntry {
  readonly connection: McpServerConnection;
  tools: Readonly<Record<string, ToolDefinition>> | undefined;
}

/**
 * The MCP servers of a host's agents and the tools they offer (docs/decisions/0024).
 * One connection per server entry (an agent definition shared by several
 * agents or subagents shares its connections); each server's tools become
 * tool definitions named `<toolPrefix><tool>` (default `<server>__<tool>`),
 * with the JSON Schema the server gives, the effect class from the tool's
 * annotations (or the agent's override) and an `execute` that sends
 * `tools/call` with the idempotency key in `_meta` ({@link MCP_IDEMPOTENCY_KEY_META}),
 * the call's signal (cancellation → `notifications/cancelled`) and progress
 * reporting. A tool whose name does not fit {@link TOOL_NAME_PATTERN} is left
 * out with a warning.
 *
 * @example
 * ```ts
 * const catalog = new McpToolCatalog({ logger });
 * catalog.start([agent]);
 * await catalog.ready(agent); // first connection attempt of each server
 * catalog.toolsOf(agent); // { fs__read_file: …, fs__write_file: … }
 * await catalog.close();
 * ```
 */
export class McpToolCatalog {
  readonly #servers = new Map<McpServerDefinition, ServerEntry>();
  #revision = 0;

  /** @param options - `logger`. */
  constructor(private readonly options: { readonly logger: Logger }) {}

  /**
   * Grows whenever a server's tool list changes (a connection, a
   * `list_changed` refresh): caches of merged agent definitions key on it.
   */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Starts connecting to every MCP server of these agents (in the background;
   * a server that cannot be reached is logged and retried).
   *
   * @param agents - agents with their `mcpServers`.
   */
  start(agents: readonly McpServersOf[]): void {
    for (const agent of agents) {
      for (const [name, server] of Object.entries(agent.mcpServers)) this.#entry(name, server);
    }
  }

  /**
   * Waits until each MCP server of the agent connected or failed its first
   * attempt (at most its `connectTimeoutMs`), so the first model call of a
   * fresh host sees the servers' tools.
   *
   * @param agent - the agent.
   */
  async ready(agent: McpServersOf): Promise<void> {
    await Promise.all(
      Object.entries(agent.mcpServers).map(
        ([name, server]) => this.#entry(name, server).connection.firstAttempt,
      ),
    );
  }

  /**
   * The tools of the agent's MCP servers now, keyed by the model's tool name
   * (the last listed tools of a server that is reconnecting stay; their calls
   * wait for the connection).
   *
   * @param agent - the agent.
   * @returns a frozen record (empty when the agent has no MCP servers).
   */
  toolsOf(agent: McpServersOf): Readonly<Record<string, ToolDefinition>> {
    const tools: Record<string, ToolDefinition> = {};
    for (const [name, server] of Object.entries(agent.mcpServers)) {
      const entry = this.#entry(name, server);
      entry.tools ??= this.#toolDefinitions(name, server, entry.connection);
      for (const [toolName, tool] of Object.entries(entry.tools)) {
        if (Object.hasOwn(tools, toolName)) {
          this.options.logger.warn(
            { agent: agent.name, tool: toolName, mcpServer: name },
            `two MCP servers of agent "${agent.name}" offer a tool named "${toolName}"; the first is kept (set a toolPrefix)`,
          );
          continue;
        }
        tools[toolName] = tool;
      }
    }
    return Object.freeze(tools);
  }

  /**
   * The connection of an agent's server, for status and tests.
   *
   * @param agent - the agent.
   * @param name - the server's name in its `mcpServers`.
   */
  connectionOf(agent: McpServersOf, name: string): McpServerConnection | undefined {
    const server = agent.mcpServers[name];
    return server === undefined ? undefined : this.#servers.get(server)?.connection;
  }

  /** Closes every connection and stops every stdio server. */
  async close(): Promise<void> {
    await Promise.all([...this.#servers.values()].map(({ connection }) => connection.close()));
  }

  #entry(name: string, server: McpServerDefinition): ServerEntry {
    let entry = this.#servers.get(server);
    if (entry === undefined) {
      const created: ServerEntry = {
        tools: undefined,
        connection: new McpServerConnection(name, server, {
          logger: this.options.logger,
          onToolsChanged: () => {
            created.tools = undefined;
            this.#revision += 1;
          },
        }),
      };
      entry = created;
      this.#servers.set(server, entry);
      entry.connection.start();
    }
    return entry;
  }

  #toolDefinitions(
    serverName: string,
    server: McpServerDefinition,
    connection: McpServerConnection,
  ): Readonly<Record<string, ToolDefinition>> {
    const prefix = server.toolPrefix ?? `${serverName}${MCP_TOOL_NAME_SEPARATOR}`;
    const tools: Record<string, ToolDefinition> = {};
    for (const tool of connection.tools) {
      const name = `${prefix}${tool.name}`;
      if (!TOOL_NAME_PATTERN.test(name)) {
        this.options.logger.warn(
          { mcpServer: serverName, tool: tool.name },
          `MCP tool "${tool.name}" of server "${serverName}" is left out: "${name}" is not a valid tool name (1 to 64 of A-Z a-z 0-9 _ -)`,
        );
        continue;
      }
      try {
        tools[name] = mcpToolDefinition(name, tool, server, connection);
      } catch (error) {
        this.options.logger.warn(
          { mcpServer: serverName, tool: tool.name, err: error },
          `MCP tool "${tool.name}" of server "${serverName}" is left out: ${(error as Error).message}`,
        );
      }
    }
    return Object.freeze(tools);
  }
}

/**
 * The tool definition of one MCP tool: the model sees `name`, the tool's
 * description and its JSON Schema; arguments are validated against that schema
 * (read by zod's `z.fromJSONSchema`; a schema it cannot read accepts any
 * object and leaves the check to the server).
 */
function mcpToolDefinition(
  name: string,
  tool: Tool,
  server: McpServerDefinition,
  connection: McpServerConnection,
): ToolDefinition {
  const override = server.tools[tool.name];
  const timeoutMs = override?.timeoutMs ?? server.timeoutMs;
  const definition = defineTool({
    name,
    description:
      tool.description ?? tool.title ?? `Tool "${tool.name}" of MCP server "${connection.name}".`,
    inputSchema: zodObjectOf(tool.inputSchema),
    inputJsonSchema: tool.inputSchema,
    effectClass: override?.effectClass ?? mcpToolEffectClass(tool.annotations),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(override?.maxResultBytes === undefined ? {} : { maxResultBytes: override.maxResultBytes }),
    execute: async (input, context) => {
      const result = await connection.call(tool.name, input, {
        signal: context.signal,
        timeoutMs: definition.timeoutMs,
        meta: {
          [MCP_IDEMPOTENCY_KEY_META]: context.idempotencyKey,
          [MCP_EXECUTION_ATTEMPT_META]: context.attempt,
        },
        onProgress: ({ progress, total, message }) =>
          context.reportProgress?.({
            progress,
            ...(total === undefined ? {} : { total }),
            ...(message === undefined ? {} : { message }),
          }),
      });
      return mcpToolResult(result);
    },
  });
  return definition;
}

function zodObjectOf(schema: Tool["inputSchema"]): z.ZodObject {
  try {
    const converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (converted instanceof z.ZodObject) return converted;
  } catch {
    // fall through: the server checks its own schema
  }
  return z.looseObject({});
}
