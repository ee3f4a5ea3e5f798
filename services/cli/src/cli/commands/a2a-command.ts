import { Command, Option } from "commander";
import { connectionOptions, nonNegativeInteger } from "@troupe/host/internal";
import type { A2aCommandOptions } from "./a2a-action.js";

/** Default TCP port of `troupe a2a`. */
export const DEFAULT_A2A_PORT = 41241;

/**
 * `troupe a2a [--agent <name>] [--port N] [--host addr] [--token T]`: serves
 * the deployment's agents over the Agent2Agent protocol (see
 * `services/cli/src/a2a/README.md`). Runs until SIGINT/SIGTERM.
 */
export function a2aCommand(): Command {
  return connectionOptions(new Command("a2a"))
    .description(
      "serve the deployment's agents over the Agent2Agent (A2A) protocol: agent cards, " +
        "SendMessage and streaming, tasks that are Troupe runs",
    )
    .option("--agent <name>", "serve only this agent (default: every agent of the module)")
    .addOption(
      new Option(
        "--agent-module <module>",
        "agent module the hosts serve (default: the running troupe dev's, else the demo agent)",
      ).env("TROUPE_AGENT"),
    )
    .addOption(
      new Option("--port <port>", "TCP port (0: a free one)")
        .default(DEFAULT_A2A_PORT)
        .argParser(nonNegativeInteger),
    )
    .option("--host <address>", "address to bind; without a token only 127.0.0.1 (default)")
    .addOption(
      new Option(
        "--token <token>",
        "bearer token every request must carry (Authorization: Bearer <token>)",
      ).env("TROUPE_A2A_TOKEN"),
    )
    .option("--public-url <url>", "base URL written in the agent cards (behind a proxy)")
    .option("--json", "print the ready line as JSON")
    .action(async (options: A2aCommandOptions) => {
      const { runA2aCommand } = await import("./a2a-action.js");
      await runA2aCommand(options);
    });
}
