import { Command } from "commander";
import { devCommand } from "./commands/dev-command.js";
import { stopCommand } from "./commands/stop-command.js";
import { adminCommands } from "./commands/admin-commands.js";
import { chatCommand } from "./commands/chat-command.js";
import { hostCommand } from "./commands/host-command.js";
import { sendCommand } from "./commands/send-command.js";
import { sessionCommands } from "./commands/session-commands.js";
import { tailCommand } from "./commands/tail-command.js";

/**
 * The `troupe` command line: every subcommand, with `--help` on each.
 *
 * @returns a commander program; `parseAsync(process.argv)` runs it.
 */
export function createProgram(): Command {
  const program = new Command("troupe")
    .description(
      "Troupe: durable, horizontally scalable AI agents on NATS JetStream and Redis.\n" +
        "Start a local cluster with `troupe dev`, then talk to it with `troupe chat`.",
    )
    .version("0.1.0")
    .showHelpAfterError("(add --help for usage)");
  program.addCommand(devCommand());
  program.addCommand(stopCommand());
  program.addCommand(sendCommand());
  program.addCommand(chatCommand());
  program.addCommand(tailCommand());
  for (const command of sessionCommands()) program.addCommand(command);
  for (const command of adminCommands()) program.addCommand(command);
  program.addCommand(hostCommand());
  return program;
}
