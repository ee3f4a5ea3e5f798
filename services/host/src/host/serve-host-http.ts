import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { TroupeError } from "@troupe/protocol";
import type { Hono } from "hono";

/** Where a host's health endpoint listens by default: loopback only. */
export const DEFAULT_HEALTH_HOST = "127.0.0.1";

/** Options of {@link serveHostHttp}. */
export interface ServeHostHttpOptions {
  /** From `createHostHttpApp`. */
  readonly app: Hono;
  /** Address to listen on; default {@link DEFAULT_HEALTH_HOST} (`0.0.0.0` in a container). */
  readonly host?: string;
  /** TCP port; 0 = any free port. */
  readonly port: number;
}

/** A listening host HTTP server. */
export interface HostHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:9464`. */
  readonly url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Serves a host process's HTTP routes (health and metrics) with
 * `@hono/node-server` (docs/decisions/0034).
 *
 * @param options - app, address and port.
 * @returns once listening.
 * @throws TroupeError `invalid_options` when the port is in use or the address
 *   cannot be bound (naming both, and the flag to change).
 */
export async function serveHostHttp(options: ServeHostHttpOptions): Promise<HostHttpServer> {
  const hostname = options.host ?? DEFAULT_HEALTH_HOST;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: options.app.fetch, hostname, port: options.port }, () =>
      resolve(started),
    );
    started.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new TroupeError(
          "invalid_options",
          `The host's health endpoint cannot listen on ${hostname}:${options.port} ` +
            `(${error.code ?? error.message}): give another --health-port (0: any free port) or --health-host.`,
          { cause: error },
        ),
      ),
    );
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
