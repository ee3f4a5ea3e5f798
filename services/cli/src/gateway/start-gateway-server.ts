import { TroupeClient } from "@troupe/client";
import { serveGateway, type GatewayAuth } from "@troupe/gateway";
import type { NatsClientSettings, RedisSettings } from "@troupe/host/internal";
import { openConsoleInspector } from "./console-inspector.js";

/** Options of {@link startGatewayServer}. */
export interface GatewayServerOptions {
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** NATS credentials and TLS (docs/decisions/0033); default: `natsUrl` alone. */
  readonly nats?: NatsClientSettings;
  /** Redis mode, ACL user and TLS (docs/decisions/0033); default: `redisUrl` alone. */
  readonly redis?: RedisSettings;
  readonly prefix: string;
  /** Listen address; default 127.0.0.1 (without tokens only loopback is allowed). */
  readonly host?: string;
  /** Port; default 7400; 0: any free port. */
  readonly port?: number;
  readonly auth?: GatewayAuth;
  readonly corsOrigins?: readonly string[] | "*";
  /** Largest request body, bytes; default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Serve the web console at `/`; default true. */
  readonly console?: boolean;
  readonly log: (line: string) => void;
}

/** A gateway started by {@link startGatewayServer}. */
export interface GatewayServer {
  /** e.g. `http://127.0.0.1:7400`. */
  readonly url: string;
  /** Stops listening, then closes its NATS and Redis connections. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP gateway of a deployment (docs/decisions/0030) for `troupe gateway`
 * and `troupe dev`: connects a {@link TroupeClient} to NATS and serves
 * `@troupe/gateway` with it.
 *
 * @throws NatsUnreachableError; `GatewayOptionsError` for a non-loopback
 *   address without tokens; the listen error (e.g. `EADDRINUSE`).
 */
export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const client = await TroupeClient.connect({
    ...(options.nats ?? { natsUrl: options.natsUrl }),
    prefix: options.prefix,
    name: "troupe-gateway",
  });
  // The console's actor, host and dead-letter views read Redis and JetStream.
  const inspector = await openConsoleInspector(options).catch(async (error: unknown) => {
    await client.close().catch(() => undefined);
    throw error;
  });
  try {
    const gateway = await serveGateway({
      client,
      inspector,
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.auth === undefined ? {} : { auth: options.auth }),
      ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
      ...(options.maxBodyBytes === undefined
        ? {}
        : { limits: { maxBodyBytes: options.maxBodyBytes } }),
      ...(options.console === undefined ? {} : { console: options.console }),
      log: options.log,
    });
    // A gateway that lost NATS answers from what it knew, or times out: say so.
    const stopWatching = client.onConnectionChange((change) =>
      options.log(
        change.kind === "disconnected"
          ? `gateway: lost NATS (${change.server}); reconnecting — requests wait or answer 503 meanwhile`
          : `gateway: NATS is back (${change.server})`,
      ),
    );
    return {
      url: gateway.url,
      close: async () => {
        stopWatching();
        await gateway.close().catch(() => undefined);
        await inspector.close();
        await client.close().catch(() => undefined);
      },
    };
  } catch (error) {
    await inspector.close();
    await client.close().catch(() => undefined);
    throw error;
  }
}
