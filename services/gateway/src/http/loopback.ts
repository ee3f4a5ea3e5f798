import { isIP } from "node:net";

/**
 * Whether `host` names this machine only: `localhost`, `127.0.0.0/8` or `::1`
 * (brackets allowed). A gateway without tokens listens only on such an
 * address (docs/decisions/0030), as `troupe mcp` and `troupe a2a` do.
 *
 * @param host - a host name or address.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}
