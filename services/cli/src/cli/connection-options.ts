import { Option, type Command } from "commander";

/**
 * Adds the connection options every command shares: `--nats <url>`,
 * `--redis <url>`, `--prefix <name>`. Without them a command uses
 * `TROUPE_NATS_URL`/`TROUPE_REDIS_URL`, then the running `troupe dev`, then
 * the default local ports (see `resolveConnection`).
 *
 * @param command - the command to extend.
 * @returns the same command.
 */
export function connectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--nats <url>",
        "NATS server URL (default: TROUPE_NATS_URL, troupe dev, nats://127.0.0.1:4222)",
      ),
    )
    .addOption(
      new Option(
        "--redis <url>",
        "Redis URL (default: TROUPE_REDIS_URL, troupe dev, redis://127.0.0.1:6379)",
      ),
    )
    .addOption(
      new Option("--prefix <name>", "deployment prefix (default: troupe)").env("TROUPE_PREFIX"),
    );
}
