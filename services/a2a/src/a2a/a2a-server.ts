import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import type { AgentDefinition } from "@troupe/agents";
import type { TroupeClient } from "@troupe/client";
import { TroupeError } from "@troupe/protocol";
import { assertListenAllowed } from "@troupe/gateway";
import { RunTasks } from "@troupe/client/tasks";
import { a2aAgentCard } from "./a2a-agent-card.js";
import { bearerAuth } from "./bearer-auth.js";
import { TroupeA2aRequestHandler } from "./troupe-a2a-request-handler.js";

/** Where the agent card sits under an agent's base path (A2A's well-known URI). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** What {@link startA2aServer} serves and where. */
export interface A2aServerOptions {
  /** The agents served; the first is the default (its card also at the root). Not empty. */
  readonly agents: readonly AgentDefinition[];
  /** A connected client of the deployment (not closed by the server). */
  readonly client: TroupeClient;
  /** Address to bind; default `127.0.0.1`. Without `token` only a loopback address is allowed. */
  readonly host?: string;
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Bearer token every JSON-RPC request must carry; none = loopback only. */
  readonly token?: string;
  /** Base URL written in the agent cards (behind a proxy); default `http://<host>:<port>`. */
  readonly publicUrl?: string;
}

/** One served agent: its name, card URL and JSON-RPC endpoint. */
export interface ServedA2aAgent {
  readonly name: string;
  readonly cardUrl: string;
  readonly endpoint: string;
}

/** A running A2A server. */
export interface A2aServer {
  /** The base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The served agents, the default first. */
  readonly agents: readonly ServedA2aAgent[];
  /** Whether requests need a bearer token (else the server listens on loopback only). */
  readonly tokenRequired: boolean;
  /** Stops accepting requests and closes open connections. */
  close(): Promise<void>;
}

/**
 * Serves Troupe agents over A2A (docs/decisions/0026) with the official SDK's Express
 * handlers: per agent `GET /agents/<name>/.well-known/agent-card.json` (its
 * card) and `POST /agents/<name>` (JSON-RPC, protocol 1.0 and, through the
 * SDK's compatibility layer, 0.3), plus the default agent's card at
 * `GET /.well-known/agent-card.json`. Each agent's requests go to a
 * {@link TroupeA2aRequestHandler}; with a `token` the JSON-RPC endpoints
 * require `Authorization: Bearer <token>` (cards stay public, and declare the
 * scheme).
 *
 * @param options - see {@link A2aServerOptions}.
 * @returns once listening.
 * @throws TroupeError `invalid_options` for no agents, or a non-loopback `host` without a token;
 *   the listen error (e.g. `EADDRINUSE`) as Node gives it.
 */
export async function startA2aServer(options: A2aServerOptions): Promise<A2aServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token === "" ? undefined : options.token;
  if (options.agents.length === 0)
    throw new TroupeError("invalid_options", "There is no agent to serve.");
  assertListenAllowed({ host, token, command: "troupe a2a", tokenEnv: "TROUPE_A2A_TOKEN" });
  const app = express();
  app.disable("x-powered-by");
  const server = await listen(app, host, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const url = (
    options.publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`
  ).replace(/\/$/, "");
  const tasks = new RunTasks(options.client, { sessionPrefix: "a2a" });
  const served: ServedA2aAgent[] = [];
  for (const agent of options.agents) {
    const base = `/agents/${encodeURIComponent(agent.name)}`;
    const card = a2aAgentCard({ agent, url: `${url}${base}`, bearer: token !== undefined });
    const handler = new TroupeA2aRequestHandler({
      card,
      agent: agent.name,
      client: options.client,
      tasks,
    });
    const cards = agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } });
    app.use(`${base}${AGENT_CARD_PATH}`, cards);
    if (served.length === 0) app.use(AGENT_CARD_PATH, cards);
    if (token !== undefined) app.post(base, bearerAuth(token));
    // Parsed here with a limit that fits the largest message (the SDK's own
    // parser, 100 KB by default, then finds the body parsed).
    app.post(base, express.json({ limit: MAX_A2A_BODY_BYTES }));
    app.use(
      base,
      jsonRpcHandler({
        requestHandler: handler,
        userBuilder: UserBuilder.noAuthentication,
        legacyCompat: { enabled: true },
      }),
    );
    served.push({
      name: agent.name,
      cardUrl: `${url}${base}${AGENT_CARD_PATH}`,
      endpoint: `${url}${base}`,
    });
  }
  app.use(jsonErrors);
  return {
    url,
    agents: served,
    tokenRequired: token !== undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Largest JSON-RPC request body, in bytes: 4 MiB, room for a user message of
 * 262 144 characters (4 bytes each at most) and the envelope.
 */
export const MAX_A2A_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Answers a request the body parser refused (too large, unreadable) with a
 * JSON-RPC error and its HTTP status instead of Express's HTML page and a
 * stack on the console.
 */
const jsonErrors: express.ErrorRequestHandler = (error, _request, response, next) => {
  if (response.headersSent) {
    next(error);
    return;
  }
  const status = (error as { status?: unknown }).status;
  const tooLarge = (error as { type?: unknown }).type === "entity.too.large";
  response.status(typeof status === "number" && status >= 400 && status < 600 ? status : 500).json({
    jsonrpc: "2.0",
    id: null,
    error: {
      code: tooLarge ? -32600 : -32603,
      message: tooLarge
        ? `The request body is larger than ${MAX_A2A_BODY_BYTES} bytes.`
        : `The request could not be read: ${(error as Error).message}`,
    },
  });
};

function listen(app: express.Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => {
      if (error === undefined) resolve(server);
      else reject(error);
    });
    server.once("error", reject);
  });
}
