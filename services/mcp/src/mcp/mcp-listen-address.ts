import { assertListenAllowed } from "@troupe/gateway";

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
 * Checks where `troupe mcp` may listen: without a token only on a
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
  assertListenAllowed({ host, token, command: "troupe mcp", tokenEnv: "TROUPE_MCP_TOKEN" });
  return { host, port, ...(token === undefined ? {} : { token }) };
}
