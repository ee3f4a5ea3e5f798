import { isLoopbackHost } from "./loopback.js";
import { TroupeError } from "@troupe/protocol";

// One rule for every HTTP server Troupe runs (troupe mcp, a2a and gateway):
// the gateway package owns it, as its `serveGateway` enforces it too.

/**
 * The rule `troupe mcp`, `troupe a2a` and `troupe gateway` share for where they may listen
 * (docs/decisions/0030): without a bearer token only on a loopback address, so only this
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
