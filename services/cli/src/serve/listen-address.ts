import { isIP } from "node:net";
import { TroupeError } from "@troupe/protocol";

/**
 * Whether `host` names this machine only: `localhost`, `127.0.0.0/8` or `::1`
 * (brackets allowed).
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
 * The rule `troupe mcp` and `troupe a2a` share for where they may listen
 * (issue #15): without a bearer token only on a loopback address, so only this
 * machine reaches the agents; a token, when given, is not blank.
 *
 * @param options - `host`, `token` (undefined = none), `command` (e.g. `"troupe mcp"`)
 *   and `tokenEnv` (e.g. `"TROUPE_MCP_TOKEN"`) for the message.
 * @throws TroupeError `invalid_options` for a non-loopback host without a
 *   token, or a blank token.
 */
export function assertListenAllowed(options: {
  readonly host: string;
  readonly token: string | undefined;
  readonly command: string;
  readonly tokenEnv: string;
}): void {
  const { host, token, command, tokenEnv } = options;
  if (token !== undefined && token.trim() === "") {
    throw new TroupeError(
      "invalid_options",
      `The ${command} bearer token is empty: give a token or none.`,
    );
  }
  if (token === undefined && !isLoopbackHost(host)) {
    throw new TroupeError(
      "invalid_options",
      `${command} refuses to listen on ${host} without a token: anyone who reaches it could run ` +
        `your agents. Give --token <secret> (or ${tokenEnv}), or listen on 127.0.0.1.`,
    );
  }
}
