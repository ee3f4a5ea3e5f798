import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { McpServerConnection } from "./mcp-server-connection.js";
import { parseMcpServers } from "./mcp-server-options.js";

// The HTTP side of a connection against a real server that only speaks the
// older HTTP+SSE transport (the SDK's SSEServerTransport): `auto` falls back
// to it (issue #15).

let http: Server | undefined;
let connection: McpServerConnection | undefined;
afterEach(async () => {
  await connection?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

/** An HTTP+SSE-only MCP server with one tool `ping`; counts POSTs to paths it does not serve. */
async function sseOnlyServer(): Promise<{ url: string; refused: () => number }> {
  const transports = new Map<string, SSEServerTransport>();
  let refused = 0;
  http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      const server = new McpServer({ name: "sse-only", version: "1.0.0" });
      server.registerTool("ping", { description: "Answers pong." }, () => ({
        content: [{ type: "text", text: "pong" }],
      }));
      void server.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport !== undefined) {
      void transport.handlePostMessage(req, res);
      return;
    }
    refused += 1;
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => http?.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sse`, refused: () => refused };
}

describe("McpServerConnection over HTTP", () => {
  it("falls back to HTTP+SSE when the server refuses Streamable HTTP, and calls its tools", async () => {
    const server = await sseOnlyServer();
    const { servers } = parseMcpServers({ legacy: { url: server.url } });
    connection = new McpServerConnection("legacy", servers.legacy!, {
      logger: pino({ level: "silent" }),
      onToolsChanged: () => undefined,
    });
    connection.start();
    await connection.firstAttempt;
    expect(connection.state).toBe("connected");
    expect(connection.tools.map((tool) => tool.name)).toEqual(["ping"]);
    // The Streamable HTTP attempt came first and was refused.
    expect(server.refused()).toBeGreaterThanOrEqual(1);
    const result = await connection.call(
      "ping",
      {},
      { signal: new AbortController().signal, meta: {}, timeoutMs: 5_000 },
    );
    expect(result.content).toEqual([{ type: "text", text: "pong" }]);
  });

  it("answers a call to a server that never connects with an error saying it was not sent", async () => {
    const { servers } = parseMcpServers({
      gone: { url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 200 },
    });
    connection = new McpServerConnection("gone", servers.gone!, {
      logger: pino({ level: "silent" }),
      onToolsChanged: () => undefined,
    });
    connection.start();
    await connection.firstAttempt;
    expect(connection.state).toBe("connecting");
    expect(connection.lastError).toBeDefined();
    await expect(
      connection.call(
        "ping",
        {},
        { signal: new AbortController().signal, meta: {}, timeoutMs: 300 },
      ),
    ).rejects.toThrow(/^MCP server "gone" is unavailable \(.+\); the call was not sent$/);
  });
});
