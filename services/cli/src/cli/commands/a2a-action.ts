import { TroupeClient } from "@troupe/client";
import { TroupeError } from "@troupe/protocol";
import { a2aReadyLine, startA2aServer } from "@troupe/a2a/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import { withAdmin } from "../with-admin.js";
import { servedAgents } from "./admin-actions.js";

/** Flags of `troupe a2a`. */
export interface A2aCommandOptions extends ConnectionFlags {
  readonly agent?: string;
  readonly agentModule?: string;
  readonly host?: string;
  readonly port: number;
  readonly token?: string;
  readonly publicUrl?: string;
  readonly json?: boolean;
}

/**
 * Runs `troupe a2a`: loads the agent module (as the admin commands do), picks
 * `--agent` or all its agents, serves them ({@link startA2aServer}) and prints
 * one ready line on stdout naming the URL, the agent cards and whether a token
 * is required (without one: bound to loopback only). Closes on SIGINT/SIGTERM.
 *
 * @throws TroupeError `unknown_agent` when `--agent` names no agent of the
 *   module; `invalid_options` for a non-loopback `--host` without a token;
 *   NatsUnreachableError / RedisUnreachableError naming the URL.
 */
export async function runA2aCommand(options: A2aCommandOptions): Promise<void> {
  await withAdmin(options, async (admin) => {
    const all = await servedAgents(admin, options.agentModule);
    const agents =
      options.agent === undefined ? all : all.filter((agent) => agent.name === options.agent);
    if (agents.length === 0) {
      throw new TroupeError(
        "unknown_agent",
        `Unknown agent "${options.agent}". The module serves: ${all.map((agent) => agent.name).join(", ")}.`,
      );
    }
    const client = await TroupeClient.connect({
      ...admin.settings.nats,
      prefix: admin.settings.prefix,
      name: "troupe-a2a",
    });
    try {
      const token = options.token === "" ? undefined : options.token;
      const server = await startA2aServer({
        agents,
        client,
        port: options.port,
        ...(options.host === undefined ? {} : { host: options.host }),
        ...(token === undefined ? {} : { token }),
        ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
      });
      process.stdout.write(`${a2aReadyLine(server, options.json === true)}\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await server.close();
    } finally {
      await client.close();
    }
  });
}
