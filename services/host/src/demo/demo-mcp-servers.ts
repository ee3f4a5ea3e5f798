import type { McpServerOptions } from "@troupe/agents";
import { TroupeError } from "@troupe/protocol";

/**
 * Environment variable through which `troupe dev --mcp` gives the demo agent's
 * hosts its MCP servers: JSON `{ "<name>": { "command": "…",
 * "args": ["…"] } }`, the `mcpServers` of `defineAgent`. `troupe host` with
 * the demo agent reads it too.
 */
export const DEMO_MCP_SERVERS_VARIABLE = "TROUPE_DEMO_MCP_SERVERS";

/**
 * The demo agent's MCP servers from {@link DEMO_MCP_SERVERS_VARIABLE}.
 *
 * @param env - environment variables.
 * @returns the `mcpServers` (empty when the variable is unset or empty); each
 *   entry is checked by `defineAgent`.
 * @throws TroupeError (code `invalid_options`) when the value is not a JSON object.
 */
export function demoMcpServers(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, McpServerOptions> {
  const raw = env[DEMO_MCP_SERVERS_VARIABLE]?.trim() ?? "";
  if (raw === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new TroupeError(
      "invalid_options",
      `${DEMO_MCP_SERVERS_VARIABLE} is not JSON: ${(error as Error).message}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new TroupeError(
      "invalid_options",
      `${DEMO_MCP_SERVERS_VARIABLE} must be a JSON object of MCP servers by name`,
    );
  }
  return parsed as Record<string, McpServerOptions>;
}
