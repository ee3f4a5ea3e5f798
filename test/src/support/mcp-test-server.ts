/**
 * Child-process entry: a small MCP server of ours over Streamable HTTP
 * (stateful sessions, the official SDK's `McpServer` and
 * `StreamableHTTPServerTransport`) for the MCP client tests of issue #15. It
 * runs in its own process so that it outlives the host processes a test kills.
 * Prints `{"url":"http://127.0.0.1:<port>/mcp"}` once listening.
 *
 * Tools (both `destructiveHint: false`, not idempotent → `non_idempotent_write`):
 * - `charge { key }`: counts an execution, then blocks until `POST /release`
 *   or until the request is cancelled; answers `charged <key>`.
 * - `hold { key }`: the same (for timeouts).
 *
 * Besides `/mcp`: `GET /state` answers {@link McpTestServerState}; `POST
 * /release` lets every blocked call finish. Started by `startMcpTestServer`
 * (mcp-test-server-process.ts).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** What the server saw, as `GET /state` answers it. */
export interface McpTestServerState {
  /** Executions per tool name (a call counts when its handler starts). */
  readonly executions: Record<string, number>;
  /** Every `tools/call` request: its tool, arguments, `_meta`, request id and MCP session. */
  readonly calls: {
    readonly tool: string;
    readonly arguments: unknown;
    readonly meta: Record<string, unknown>;
    readonly requestId: string | number;
    readonly mcpSessionId: string;
  }[];
  /** Every `notifications/cancelled`: the request id it names, its reason. */
  readonly cancelled: {
    readonly requestId: string | number;
    readonly reason?: string;
    readonly mcpSessionId: string;
  }[];
  /** Calls whose handler ended, and how: `released` or `aborted` (by a cancellation). */
  readonly ended: { readonly tool: string; readonly key: string; readonly how: string }[];
}

const state: McpTestServerState = { executions: {}, calls: [], cancelled: [], ended: [] };
const releases: (() => void)[] = [];
const transports = new Map<string, StreamableHTTPServerTransport>();

function mcpServer(): McpServer {
  const server = new McpServer({ name: "troupe-test-http", version: "1.0.0" });
  const blocking =
    (tool: string) =>
    async ({ key }: { key: string }, extra: { signal: AbortSignal }) => {
      state.executions[tool] = (state.executions[tool] ?? 0) + 1;
      const how = await new Promise<string>((resolve) => {
        releases.push(() => resolve("released"));
        extra.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
      });
      state.ended.push({ tool, key, how });
      return {
        content: [
          { type: "text" as const, text: `${tool === "charge" ? "charged" : "held"} ${key}` },
        ],
      };
    };
  const annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
  server.registerTool(
    "charge",
    {
      description: "Charges a card (blocks until released).",
      inputSchema: { key: z.string() },
      annotations,
    },
    blocking("charge"),
  );
  server.registerTool(
    "hold",
    { description: "Holds until released.", inputSchema: { key: z.string() }, annotations },
    blocking("hold"),
  );
  return server;
}

/** Records the requests and notifications a session's transport receives. */
function recordMessages(transport: StreamableHTTPServerTransport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    const mcpSessionId = transport.sessionId ?? "";
    if ("method" in message && message.method === "tools/call" && "id" in message) {
      const params = (message.params ?? {}) as {
        name?: string;
        arguments?: unknown;
        _meta?: Record<string, unknown>;
      };
      state.calls.push({
        tool: params.name ?? "",
        arguments: params.arguments,
        meta: params._meta ?? {},
        requestId: message.id,
        mcpSessionId,
      });
    }
    if ("method" in message && message.method === "notifications/cancelled") {
      const params = (message.params ?? {}) as { requestId?: string | number; reason?: string };
      state.cancelled.push({
        requestId: params.requestId ?? "",
        ...(params.reason === undefined ? {} : { reason: params.reason }),
        mcpSessionId,
      });
    }
    deliver?.(message, extra);
  };
}

const http = createServer((request, response) => {
  void (async () => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === "/state") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(state));
      return;
    }
    if (path === "/release" && request.method === "POST") {
      for (const release of releases.splice(0)) release();
      response.writeHead(204).end();
      return;
    }
    if (path !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const sessionHeader = request.headers["mcp-session-id"];
    const transport = typeof sessionHeader === "string" ? transports.get(sessionHeader) : undefined;
    if (transport === undefined) {
      if (typeof sessionHeader === "string") {
        response.writeHead(404).end();
        return;
      }
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id: string): void => {
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) transports.delete(created.sessionId);
      };
      await mcpServer().connect(created);
      recordMessages(created);
      await created.handleRequest(request, response);
      return;
    }
    await transport.handleRequest(request, response);
  })().catch((error: unknown) => {
    process.stderr.write(`mcp-test-server: ${String(error)}\n`);
    if (!response.headersSent) response.writeHead(500).end();
  });
});

http.listen(0, "127.0.0.1", () => {
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
