import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Progress,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { ToolOutcomeUnknownError, ToolReportedError } from "../tools/tool-call-errors.js";
import { type McpServerDefinition, isStdioServer } from "./mcp-server-options.js";

/** First wait before reconnecting to a server that failed or closed, in ms; doubles per failure. */
export const MCP_RECONNECT_BASE_MS = 500;
/** Longest wait between two connection attempts, in ms (the back-off's bound). */
export const MCP_RECONNECT_MAX_MS = 30_000;
/** A connection that stays up this long (ms) resets the back-off. */
const STABLE_CONNECTION_MS = 10_000;
/** Lines of a stdio server's stderr kept for error messages. */
const STDERR_TAIL_LINES = 5;

/** Where a connection is: `connecting` (first attempt or a reconnect), `connected`, `closed` (by {@link McpServerConnection.close}). */
export type McpConnectionState = "connecting" | "connected" | "closed";

/** What one tool call sends beside the arguments. */
export interface McpCallOptions {
  /** Aborts the request: the SDK sends `notifications/cancelled` for it. */
  readonly signal: AbortSignal;
  /** The request's `_meta` (the idempotency key and execution attempt). */
  readonly meta: Record<string, unknown>;
  /** The call's timeout, in ms (the SDK's own request timeout is set a little above it). */
  readonly timeoutMs: number;
  /** Called with each `notifications/progress` of the request. */
  readonly onProgress?: (progress: Progress) => void;
}

/**
 * One MCP server of an agent, as a host sees it (docs/decisions/0024): connects with the
 * official SDK's `Client` — stdio servers are started as child processes,
 * URL servers over Streamable HTTP (falling back to HTTP+SSE) — lists its
 * tools, follows `notifications/tools/list_changed`, and reconnects after a
 * failure or an exit with a bounded back-off (500 ms doubling to 30 s; a stdio
 * server is started again). A server that cannot be reached is logged with
 * its name and retried; it never throws out of the host.
 *
 * @example
 * ```ts
 * const fs = new McpServerConnection("fs", definition, { logger, onToolsChanged: () => {} });
 * fs.start(); await fs.firstAttempt;
 * const result = await fs.call("read_file", { path: "/tmp/a" }, { signal, meta: {}, timeoutMs: 30_000 });
 * ```
 */
export class McpServerConnection {
  #state: McpConnectionState = "connecting";
  #client: Client | undefined;
  #tools: readonly Tool[] = [];
  #lastError: string | undefined;
  #failures = 0;
  #started = false;
  #stderrTail: string[] = [];
  readonly #stopping = new AbortController();
  #settleFirst!: () => void;
  #connectedWaiters: (() => void)[] = [];
  #loop: Promise<void> | undefined;
  /** Resolves when the first connection attempt succeeded or failed. */
  readonly firstAttempt: Promise<void>;

  /**
   * @param name - the server's name in the agent's `mcpServers`.
   * @param server - its validated entry.
   * @param options - `logger`; `onToolsChanged`, called after the tool list changed
   *   (a connection, a list_changed refresh); `clientVersion` for `clientInfo`.
   */
  constructor(
    readonly name: string,
    readonly server: McpServerDefinition,
    private readonly options: {
      readonly logger: Logger;
      readonly onToolsChanged: () => void;
      readonly clientVersion?: string;
    },
  ) {
    this.firstAttempt = new Promise<void>((resolve) => (this.#settleFirst = resolve));
  }

  /** Where the connection is now. */
  get state(): McpConnectionState {
    return this.#state;
  }

  /** The tools the server listed at the last connection or refresh (kept while it reconnects). */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  /** Why the last connection attempt failed or the connection closed, if it did. */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** Starts connecting (once); later calls do nothing. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#loop = this.#run();
  }

  /**
   * Calls a tool of the server (`tools/call`) and returns its result as the
   * server sent it. Waits for a connection while one is being made (up to the
   * call's signal).
   *
   * @param toolName - the tool's name on the server.
   * @param args - the arguments.
   * @param options - signal, `_meta`, timeout, progress callback.
   * @returns the `CallToolResult` (with `isError: true` when the tool failed).
   * @throws ToolOutcomeUnknownError when the request left and its answer was
   *   lost (the connection closed, the SDK's request timeout);
   *   ToolReportedError when the server refused the request (a JSON-RPC
   *   error: unknown tool, invalid params); the signal's reason when it aborted;
   *   Error naming the server when it is unavailable (not connected within
   *   half the call's timeout, at most `connectTimeoutMs`: the call was not
   *   sent) or closed.
   */
  async call(
    toolName: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    // A call that never left did not run: after this wait it fails plainly
    // (a write may then be asked again), it is not outcome unknown.
    const waitMs = Math.min(this.server.connectTimeoutMs, Math.ceil(options.timeoutMs / 2));
    const waited = AbortSignal.timeout(waitMs);
    let client: Client;
    try {
      client = await this.#connected(AbortSignal.any([options.signal, waited]));
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (!waited.aborted) throw error;
      throw new Error(
        `MCP server "${this.name}" is unavailable (${this.#lastError ?? "still connecting"}); the call was not sent`,
        { cause: error },
      );
    }
    try {
      const result = await client.callTool(
        { name: toolName, arguments: args, _meta: options.meta },
        undefined,
        {
          signal: options.signal,
          timeout: options.timeoutMs + 1_000,
          ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
        },
      );
      return result as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (error instanceof McpError) {
        const code: number = error.code;
        if (
          code === Number(ErrorCode.ConnectionClosed) ||
          code === Number(ErrorCode.RequestTimeout)
        ) {
          throw new ToolOutcomeUnknownError(
            `the connection to MCP server "${this.name}" ${code === Number(ErrorCode.ConnectionClosed) ? "closed" : "timed out"} during the call`,
            { cause: error },
          );
        }
        throw new ToolReportedError(`MCP server "${this.name}" refused the call: ${error.message}`);
      }
      throw new ToolOutcomeUnknownError(
        `the request to MCP server "${this.name}" failed: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  /** Closes the connection (and stops a stdio server); no reconnect follows. */
  async close(): Promise<void> {
    this.#state = "closed";
    this.#stopping.abort();
    this.#settleFirst();
    for (const wake of this.#connectedWaiters.splice(0)) wake();
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
    await this.#loop;
  }

  async #run(): Promise<void> {
    const signal = this.#stopping.signal;
    while (!signal.aborted) {
      let closed: Promise<void>;
      let connectedAtMs: number;
      try {
        ({ closed } = await this.#connectOnce());
        connectedAtMs = Date.now();
      } catch (error) {
        if (signal.aborted) return;
        this.#failures += 1;
        this.#lastError = this.#describe(error);
        const delayMs = this.#backoffMs();
        // One line per attempt, no stack: an unreachable server is an expected
        // condition, not a bug. The first of a streak is an error, the rest warnings.
        const log = this.#failures === 1 ? this.options.logger.error : this.options.logger.warn;
        log.call(
          this.options.logger,
          { mcpServer: this.name, retryInMs: delayMs, failures: this.#failures },
          `MCP server "${this.name}" is unreachable: ${this.#lastError}; its tools are unavailable until it connects (retrying in ${delayMs} ms)`,
        );
        this.#settleFirst();
        await sleep(delayMs, undefined, { signal }).catch(() => undefined);
        continue;
      }
      this.#settleFirst();
      await closed;
      if (signal.aborted) return;
      this.#failures = Date.now() - connectedAtMs >= STABLE_CONNECTION_MS ? 1 : this.#failures + 1;
      const delayMs = this.#backoffMs();
      this.#state = "connecting";
      this.options.logger.warn(
        { mcpServer: this.name, retryInMs: delayMs, stderr: this.#stderrTail.join(" | ") },
        `MCP server "${this.name}" closed its connection${isStdioServer(this.server) ? " (the process exited)" : ""}; reconnecting in ${delayMs} ms`,
      );
      await sleep(delayMs, undefined, { signal }).catch(() => undefined);
    }
  }

  #backoffMs(): number {
    return Math.min(MCP_RECONNECT_MAX_MS, MCP_RECONNECT_BASE_MS * 2 ** (this.#failures - 1));
  }

  /**
   * One connection attempt: connect, initialize, list the tools.
   *
   * @returns `closed`: resolves when this connection closes.
   */
  async #connectOnce(): Promise<{ closed: Promise<void> }> {
    const timeout = AbortSignal.timeout(this.server.connectTimeoutMs);
    const signal = AbortSignal.any([timeout, this.#stopping.signal]);
    const transports = this.#transports();
    const errors: string[] = [];
    let lastError: unknown;
    for (const [label, transport] of transports) {
      const client = new Client(
        { name: "troupe", version: this.options.clientVersion ?? "0.1.0" },
        {
          capabilities: {},
          listChanged: {
            tools: {
              onChanged: (error, tools) => {
                if (error !== null || tools === null || this.#client !== client) return;
                this.#tools = tools;
                this.options.logger.info(
                  { mcpServer: this.name, tools: tools.length },
                  `MCP server "${this.name}" changed its tool list`,
                );
                this.options.onToolsChanged();
              },
            },
          },
        },
      );
      let resolveClosed!: () => void;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
      client.onclose = () => {
        if (this.#client === client) this.#client = undefined;
        resolveClosed();
      };
      try {
        await client.connect(transport(), { signal, timeout: this.server.connectTimeoutMs });
        const tools = await listAllTools(client, signal, this.server.connectTimeoutMs);
        this.#client = client;
        this.#tools = tools;
        this.#state = "connected";
        this.#lastError = undefined;
        this.options.logger.info(
          { mcpServer: this.name, tools: tools.length },
          `MCP server "${this.name}" connected with ${tools.length} tools`,
        );
        this.options.onToolsChanged();
        for (const wake of this.#connectedWaiters.splice(0)) wake();
        return { closed };
      } catch (error) {
        lastError = error;
        errors.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
        await client.close().catch(() => undefined);
        if (this.#stopping.signal.aborted) throw error;
      }
    }
    // With several transports tried, say what each answered.
    throw transports.length > 1 ? new Error(errors.join("; "), { cause: lastError }) : lastError;
  }

  /** The transports to try in order, each with its name (HTTP `auto`: Streamable HTTP, then SSE). */
  #transports(): [string, () => Transport][] {
    const server = this.server;
    if (isStdioServer(server)) {
      return [
        [
          "stdio",
          () => {
            this.#stderrTail = [];
            const transport = new StdioClientTransport({
              command: server.command,
              args: server.args,
              env: { ...getDefaultEnvironment(), ...server.env },
              ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
              stderr: "pipe",
            });
            const stderr = transport.stderr as Readable | null;
            if (stderr !== null) {
              createInterface({ input: stderr }).on("line", (line) => {
                this.#stderrTail.push(line);
                if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
                this.options.logger.debug(
                  { mcpServer: this.name, stderr: line },
                  "MCP server stderr",
                );
              });
            }
            return transport;
          },
        ],
      ];
    }
    const url = new URL(server.url);
    const requestInit = server.headers === undefined ? undefined : { headers: server.headers };
    const http = () =>
      new StreamableHTTPClientTransport(url, requestInit === undefined ? {} : { requestInit });
    const sse = () => new SSEClientTransport(url, requestInit === undefined ? {} : { requestInit });
    if (server.transport === "streamable-http") return [["Streamable HTTP", http]];
    if (server.transport === "sse") return [["SSE", sse]];
    return [
      ["Streamable HTTP", http],
      ["SSE", sse],
    ];
  }

  async #connected(signal: AbortSignal): Promise<Client> {
    for (;;) {
      signal.throwIfAborted();
      if (this.#state === "closed") {
        throw new Error(`MCP server "${this.name}" is closed (the host is stopping)`);
      }
      if (this.#client !== undefined) return this.#client;
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal.removeEventListener("abort", wake);
          resolve();
        };
        this.#connectedWaiters.push(wake);
        signal.addEventListener("abort", wake, { once: true });
      });
    }
  }

  #describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const stderr = this.#stderrTail.length > 0 ? ` (stderr: ${this.#stderrTail.join(" | ")})` : "";
    return `${message}${stderr}`;
  }
}

/** Every page of `tools/list`. */
async function listAllTools(
  client: Client,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
      signal,
      timeout: timeoutMs,
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
