import { Command, Option } from "commander";
import { connectionOptions } from "../settings/connection-options.js";
import { positiveInteger } from "../settings/parse-number.js";
import { streamOptions } from "../settings/stream-options.js";
import { hostHealthOptions } from "./host-health-options.js";
import type { HostCommandOptions } from "./host-action.js";

/**
 * `troupe host`: a production actor host serving an agent module (default: the
 * demo agent). Graceful on SIGTERM/SIGINT: finishes in-flight messages and
 * releases its shard leases at once, so another host takes them without
 * waiting for the lease TTL.
 */
export function hostCommand(): Command {
  return hostHealthOptions(streamOptions(connectionOptions(new Command("host"))))
    .description("run an actor host serving an agent module (graceful on SIGTERM)")
    .addOption(
      new Option(
        "--agent <module>",
        "agent module (path or package); default: the running troupe dev's, else the demo agent",
      ).env("TROUPE_AGENT"),
    )
    .addOption(
      new Option(
        "--shards <count>",
        "shards of the deployment (default: the recorded count, else 64)",
      )
        .env("TROUPE_SHARD_COUNT")
        .argParser(positiveInteger),
    )
    .addOption(
      new Option("--concurrency <count>", "actors processing a message at once (default 256)")
        .env("TROUPE_MAX_CONCURRENCY")
        .argParser(positiveInteger),
    )
    .addOption(new Option("--host-id <id>", "unique id of this host").env("TROUPE_HOST_ID"))
    .option(
      "--check",
      "only check the agent module and each agent's model key (no servers needed), print agent → model, exit",
    )
    .option("--json", "print the ready line (with --check: the models) as JSON")
    .action(async (options: HostCommandOptions) => {
      if (options.check === true) {
        const { checkHostCommand } = await import("./host-check-action.js");
        return await checkHostCommand(options);
      }
      const { runHostCommand } = await import("./host-action.js");
      await runHostCommand(options);
    });
}
