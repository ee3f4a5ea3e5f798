import { Command, Option } from "commander";
import { connectionOptions, nonNegativeInteger } from "@troupe/host/internal";
import type { McpCommandOptions } from "./mcp-action.js";

/**
 * `troupe mcp [--agent <name>]… [--port N | --stdio] [--host <addr>] [--token <secret>]`:
 * serves the deployment's agents as an MCP server (docs/decisions/0025), one tool per
 * agent, MCP tasks mapped to runs, transcripts as resources. See
 * `services/cli/src/mcp/README.md`.
 */
export function mcpCommand(): Command {
  return connectionOptions(new Command("mcp"))
    .description("serve the deployment's agents as an MCP server (Streamable HTTP or stdio)")
    .addOption(
      new Option(
        "--agent <name>",
        "serve only this agent (repeatable; default: every agent)",
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option(
        "--agent-module <module>",
        "agent module (path or package); default: the running troupe dev's, else the demo agent",
      ).env("TROUPE_AGENT"),
    )
    .addOption(
      new Option("--port <port>", "HTTP port (default 7410; 0: any free port)")
        .env("TROUPE_MCP_PORT")
        .argParser(nonNegativeInteger)
        .conflicts("stdio"),
    )
    .addOption(
      new Option("--host <address>", "HTTP address to listen on (default 127.0.0.1)")
        .env("TROUPE_MCP_HOST")
        .conflicts("stdio"),
    )
    .addOption(
      new Option(
        "--token <secret>",
        "bearer token every HTTP request must carry (without one: loopback only)",
      ).env("TROUPE_MCP_TOKEN"),
    )
    .option("--stdio", "speak MCP on stdin/stdout (for a client that starts this command)")
    .action(async (options: McpCommandOptions) => {
      const { runMcpCommand } = await import("./mcp-action.js");
      await runMcpCommand(options);
    });
}
