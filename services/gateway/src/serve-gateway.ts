import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { authConfigured } from "./http/access.js";
import { isLoopbackHost } from "./http/loopback.js";
import { createGateway, type Gateway, type GatewayOptions } from "./create-gateway.js";

/** Where `troupe gateway` listens by default: port 7400. */
export const DEFAULT_GATEWAY_PORT = 7400;

/** Options of {@link serveGateway}: those of `createGateway`, and where to listen. */
export interface ServeGatewayOptions extends GatewayOptions {
  /** Address to listen on; default `127.0.0.1`. Without tokens only a loopback address is allowed. */
  readonly host?: string;
  /** Port; default {@link DEFAULT_GATEWAY_PORT}; 0 = any free port. */
  readonly port?: number;
}

/** A listening gateway. */
export interface ServingGateway extends Gateway {
  /** Base URL, e.g. `http://127.0.0.1:7400`. */
  readonly url: string;
  /** Stops accepting connections, ends open streams, stops the fleet index. */
  close(): Promise<void>;
}

/** The error {@link serveGateway} throws for options it refuses. */
export class GatewayOptionsError extends Error {
  override readonly name = "GatewayOptionsError";
}

/**
 * Builds the gateway (`createGateway`) and listens with `@hono/node-server`.
 *
 * @param options - see {@link ServeGatewayOptions}.
 * @returns once listening.
 * @throws {@link GatewayOptionsError} for a non-loopback `host` without tokens.
 * @throws the listen error (e.g. `EADDRINUSE`).
 */
export async function serveGateway(options: ServeGatewayOptions): Promise<ServingGateway> {
  const host = options.host ?? "127.0.0.1";
  if (!authConfigured(options.auth) && !isLoopbackHost(host)) {
    throw new GatewayOptionsError(
      `The gateway refuses to listen on ${host} without tokens: anyone who reaches it could ` +
        "talk to your agents and approve their tool calls. Give a token, or listen on 127.0.0.1.",
    );
  }
  const gateway = createGateway(options);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve(
      { fetch: gateway.app.fetch, hostname: host, port: options.port ?? DEFAULT_GATEWAY_PORT },
      () => resolve(started),
    );
    started.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    ...gateway,
    url: `http://${shownHost}:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await gateway.close();
    },
  };
}
