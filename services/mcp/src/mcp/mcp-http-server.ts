import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { bearerTokenMatches, isLoopbackHost } from "@troupe/gateway";
import type { McpListenAddress } from "./mcp-listen-address.js";

/** The path of the MCP endpoint. */
export const MCP_PATH = "/mcp";

/** A running `troupe mcp` HTTP endpoint. */
export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:7410/mcp`. */
  readonly url: string;
  /** Closes every MCP session and the listening socket. */
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`: one SDK
 * `StreamableHTTPServerTransport` and one server from `createMcpServer` per
 * MCP session (`Mcp-Session-Id`), kept in memory — a session is a connection,
 * not task state: after a restart clients initialize again and their tasks
 * are still there. With a token every request needs `Authorization: Bearer
 * <token>` (401 otherwise); on a loopback address the SDK's DNS-rebinding
 * protection accepts only `Host: 127.0.0.1:<port>` / `localhost:<port>`.
 *
 * @param address - host, port (0: any free one) and token.
 * @param createMcpServer - a new MCP server for each session.
 * @param log - one line for each failure, to stderr.
 * @returns once listening.
 * @throws the socket's error (e.g. `EADDRINUSE`).
 */
export async function startMcpHttpServer(
  address: McpListenAddress,
  createMcpServer: () => Server,
  log: (line: string) => void,
): Promise<McpHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== MCP_PATH)
      return reply(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    if (
      address.token !== undefined &&
      !bearerTokenMatches(request.headers.authorization, address.token)
    ) {
      response.setHeader("WWW-Authenticate", 'Bearer realm="troupe"');
      return reply(response, 401, "Unauthorized: send Authorization: Bearer <token>.");
    }
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = transports.get(sessionId);
      if (transport === undefined) {
        return jsonRpcError(response, 404, -32001, "Session not found: initialize a new session.");
      }
      return await transport.handleRequest(request, response);
    }
    if (request.method !== "POST") {
      return jsonRpcError(response, 400, -32000, "Bad request: no Mcp-Session-Id header.");
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
      onsessionclosed: (id) => void transports.delete(id),
      ...(allowedHosts === undefined ? {} : { enableDnsRebindingProtection: true, allowedHosts }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    await createMcpServer().connect(transport);
    await transport.handleRequest(request, response);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`MCP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) jsonRpcError(response, 500, -32603, "Internal server error");
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(address.port, address.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const hostInUrl = address.host.includes(":") ? `[${address.host}]` : address.host;
  if (isLoopbackHost(address.host)) {
    allowedHosts = [
      `${hostInUrl}:${port}`,
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
    ];
  }
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    async close() {
      await Promise.all(
        [...transports.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}

function jsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  response
    .writeHead(status, { "Content-Type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
