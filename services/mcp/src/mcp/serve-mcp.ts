import { createRequire } from "node:module";
import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { TroupeClient } from "@troupe/client";
import { streamNames } from "@troupe/protocol";
import { RunTasks } from "@troupe/client/tasks";
import type { ServedAgent } from "./agent-tool.js";
import { startMcpHttpServer } from "./mcp-http-server.js";
import type { McpListenAddress } from "./mcp-listen-address.js";
import { readSessionTranscript } from "./session-transcript.js";
import { createTroupeMcpServer } from "./troupe-mcp-server.js";

/** This package's version (from src/mcp/ and dist/mcp/ alike). */
const packageVersion = (createRequire(import.meta.url)("../../package.json") as { version: string })
  .version;

/** What {@link serveMcp} needs. */
export interface ServeMcpOptions {
  /** A connected client of the deployment (runs, events, commands). */
  readonly client: TroupeClient;
  /** A NATS connection to the same deployment (the transcript stream); default: the client's. */
  readonly nats?: NatsConnection;
  /** Deployment prefix (stream names); default: the client's. */
  readonly prefix?: string;
  /** The agents to serve. */
  readonly agents: readonly ServedAgent[];
  /** `{ kind: "http", address }` (Streamable HTTP) or `{ kind: "stdio" }`. */
  readonly transport:
    { readonly kind: "http"; readonly address: McpListenAddress } | { readonly kind: "stdio" };
  /** Version announced to MCP clients; default: this package's version. */
  readonly version?: string;
  /** One line of diagnostics; default: a line on stderr (never stdout, the stdio transport's). */
  readonly log?: (line: string) => void;
}

/** A running `troupe mcp`. */
export interface ServingMcp {
  /** The HTTP endpoint; absent for stdio. */
  readonly url?: string;
  /** Settles when the server stopped on its own (stdio: the client closed stdin). */
  readonly closed: Promise<void>;
  /** Stops serving (HTTP: closes every session and the socket). */
  close(): Promise<void>;
}

/**
 * Serves the agents of a deployment as an MCP server, over Streamable HTTP or
 * stdio (see `createTroupeMcpServer`). On stdio nothing but MCP
 * messages goes to stdout.
 *
 * @param options - see {@link ServeMcpOptions}.
 * @returns once serving.
 * @throws the socket's error when the HTTP port cannot be bound.
 */
export async function serveMcp(options: ServeMcpOptions): Promise<ServingMcp> {
  const tasks = new RunTasks(options.client, { sessionPrefix: "mcp" });
  const js = jetstream(options.nats ?? options.client.natsConnection);
  const transcriptStream = streamNames(
    options.prefix ?? options.client.deploymentPrefix,
  ).transcript;
  const version = options.version ?? packageVersion;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const create = () =>
    createTroupeMcpServer({
      agents: options.agents,
      tasks,
      readTranscript: (sessionId) => readSessionTranscript(js, transcriptStream, sessionId),
      version,
    });
  if (options.transport.kind === "http") {
    const http = await startMcpHttpServer(options.transport.address, create, log);
    let stop: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (stop = resolve));
    return {
      url: http.url,
      closed,
      async close() {
        await http.close();
        stop();
      },
    };
  }
  const server = create();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  server.onerror = (error) => log(`MCP error: ${error.message}`);
  await server.connect(transport);
  return {
    closed,
    async close() {
      await server.close();
    },
  };
}
