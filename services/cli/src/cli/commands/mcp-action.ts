import type { AgentDefinition } from "@troupe/agents";
import { TroupeClient } from "@troupe/client";
import { connectNats } from "@troupe/client/internal";
import { TroupeError } from "@troupe/protocol";
import {
  asRedis,
  createRedisConnection,
  DEMO_AGENT_MODULE,
  loadAgentModule,
} from "@troupe/host/internal";
import { servedAgentOf, type ServedAgent } from "@troupe/mcp/internal";
import { mcpListenAddress, serveMcp } from "@troupe/mcp/internal";
import {
  resolveConnection,
  type ConnectionFlags,
  type ConnectionSettings,
} from "@troupe/host/internal";
import { cliVersion } from "../init/project-template.js";

/** Flags of `troupe mcp`. */
export interface McpCommandOptions extends ConnectionFlags {
  readonly agent?: string[];
  readonly agentModule?: string;
  readonly port?: number;
  readonly host?: string;
  readonly stdio?: boolean;
  readonly token?: string;
}

/**
 * Runs `troupe mcp` until SIGINT/SIGTERM (or, with `--stdio`, until the
 * client closes stdin): finds the deployment as every client command does,
 * loads the agent module to learn the agents' names and descriptions, and
 * serves them. Every line of its own goes to stderr, except the
 * HTTP startup line (stdout).
 *
 * @throws TroupeError `invalid_options` for a non-loopback `--host` without a
 *   token, an empty token, or an `--agent` the module does not define;
 *   `AgentModuleError` for a bad module; `NatsUnreachableError`.
 */
export async function runMcpCommand(options: McpCommandOptions): Promise<void> {
  const stdio = options.stdio === true;
  const address = stdio
    ? undefined
    : mcpListenAddress({ host: options.host, port: options.port, token: options.token });
  const connection = await resolveConnection(options);
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  if (connection.note !== undefined) log(`note: ${connection.note}`);
  const module = options.agentModule ?? connection.dev?.agentModule ?? DEMO_AGENT_MODULE;
  const agents = selectAgents(await loadAgents(module, connection), options.agent);
  const client = await TroupeClient.connect({
    ...connection.nats,
    prefix: connection.prefix,
    name: "troupe-mcp",
  });
  const nats = await connectNats({ ...connection.nats, name: "troupe-mcp-transcripts" });
  const closeConnections = async () => {
    await client.close().catch(() => undefined);
    await nats.close().catch(() => undefined);
  };
  let serving;
  try {
    serving = await serveMcp({
      client,
      nats,
      prefix: connection.prefix,
      agents,
      transport: address === undefined ? { kind: "stdio" } : { kind: "http", address },
      version: cliVersion(),
      log,
    });
  } catch (error) {
    await closeConnections();
    throw error;
  }
  const names = agents.map((agent) => agent.name).join(", ");
  if (serving.url !== undefined) {
    const access =
      address?.token === undefined ? "no token: loopback only" : "bearer token required";
    process.stdout.write(`troupe mcp: serving ${names} at ${serving.url} (${access})\n`);
  } else {
    log(`troupe mcp: serving ${names} over stdio`);
  }
  const stopped = new Promise<NodeJS.Signals | undefined>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    void serving.closed.then(() => resolve(undefined));
  });
  const signal = await stopped;
  if (signal !== undefined) log(`troupe mcp: ${signal}, stopping`);
  await serving.close().catch(() => undefined);
  await closeConnections();
}

/** The module's agents; a lazy Redis for factories that want one (the agents are not run here). */
async function loadAgents(
  module: string,
  connection: ConnectionSettings,
): Promise<AgentDefinition[]> {
  const redis = asRedis(
    createRedisConnection(connection.redis, { lazyConnect: true, maxRetriesPerRequest: 1 }),
  );
  try {
    return await loadAgentModule(module, {
      redis,
      natsUrl: connection.natsUrl,
      redisUrl: connection.redisUrl,
      log: (line) => void process.stderr.write(`${line}\n`),
    });
  } finally {
    redis.disconnect();
  }
}

/** The agents `--agent` names (all without it), as served. */
function selectAgents(
  definitions: readonly AgentDefinition[],
  names: readonly string[] | undefined,
): ServedAgent[] {
  const served = definitions.map(servedAgentOf);
  if (names === undefined || names.length === 0) return served;
  const unknown = names.filter((name) => !served.some((agent) => agent.name === name));
  if (unknown.length > 0) {
    throw new TroupeError(
      "invalid_options",
      `The agent module defines no agent ${unknown.join(", ")}; it defines ${served.map((agent) => agent.name).join(", ")}.`,
    );
  }
  return served.filter((agent) => names.includes(agent.name));
}
