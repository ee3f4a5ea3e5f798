import { isIP } from "node:net";
import { TroupeError } from "@troupe/protocol";

/** Where `troupe mcp` listens by default: loopback, port 7410. */
export const DEFAULT_MCP_HOST = "127.0.0.1";
/** Default port of `troupe mcp`. */
export const DEFAULT_MCP_PORT = 7410;

/** Where and how the HTTP transport listens. */
export interface McpListenAddress {
  readonly host: string;
  readonly port: number;
  /** The bearer token every request must carry; absent: none (loopback only). */
  readonly token?: string;
}

/**
 * Whether `host` names this machine only: `localhost`, `127.0.0.0/8` or `::1`.
 *
 * @param host - a host name or address.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}

/**
 * Checks where `troupe mcp` may listen (issue #15): without a token only on a
 * loopback address, so only this machine reaches the agents.
 *
 * @param options - `host` (default 127.0.0.1), `port` (default 7410; 0 = any free), `token`.
 * @returns the address to listen on.
 * @throws TroupeError `invalid_options` for a non-loopback host without a token,
 *   or an empty token.
 */
export function mcpListenAddress(options: {
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly token?: string | undefined;
}): McpListenAddress {
  const host = options.host ?? DEFAULT_MCP_HOST;
  const port = options.port ?? DEFAULT_MCP_PORT;
  const token = options.token;
  if (token !== undefined && token.trim() === "") {
    throw new TroupeError(
      "invalid_options",
      "The MCP bearer token is empty: give a token or none.",
    );
  }
  if (token === undefined && !isLoopbackHost(host)) {
    throw new TroupeError(
      "invalid_options",
      `troupe mcp refuses to listen on ${host} without a token: anyone who reaches it could run ` +
        "your agents. Give --token <secret> (or TROUPE_MCP_TOKEN), or listen on 127.0.0.1.",
    );
  }
  return { host, port, ...(token === undefined ? {} : { token }) };
}
