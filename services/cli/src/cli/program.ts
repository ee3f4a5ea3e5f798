import { Command, Option } from "commander";
import { a2aCommand } from "./commands/a2a-command.js";
import { devCommand } from "./commands/dev-command.js";
import { gatewayCommand } from "./commands/gateway-command.js";
import { migrateCommand } from "./commands/migrate-command.js";
import { stopCommand } from "./commands/stop-command.js";
import { forkCommand } from "./commands/fork-command.js";
import { adminCommands } from "./commands/admin-commands.js";
import { chatCommand } from "./commands/chat-command.js";
import { hostCommand } from "@troupe/host/internal";
import { initCommand } from "./commands/init-command.js";
import { mcpCommand } from "./commands/mcp-command.js";
import { sendCommand } from "./commands/send-command.js";
import { sessionCommands } from "./commands/session-commands.js";
import { shardsCommand } from "./commands/shards-command.js";
import { tailCommand } from "./commands/tail-command.js";
import { tenantsCommand } from "./commands/tenants-command.js";
import { scheduleCommand } from "./commands/schedule-command.js";
import { usageCommand } from "./commands/usage-command.js";

/**
 * The `troupe` command line: every subcommand, with `--help` on each.
 *
 * @returns a commander program; `parseAsync(process.argv)` runs it.
 */
export function createProgram(): Command {
  const program = new Command("troupe")
    .description(
      "Troupe: durable, horizontally scalable AI agents on NATS JetStream and Redis.\n" +
        "Start a project with `troupe init`, a local cluster with `troupe dev`,\n" +
        "then talk to it with `troupe chat`.",
    )
    .version("0.1.0")
    .showHelpAfterError("(add --help for usage)");
  program.addCommand(initCommand());
  program.addCommand(devCommand());
  program.addCommand(stopCommand());
  program.addCommand(sendCommand());
  program.addCommand(chatCommand());
  program.addCommand(tailCommand());
  for (const command of sessionCommands()) program.addCommand(command);
  program.addCommand(forkCommand());
  for (const command of adminCommands()) program.addCommand(command);
  program.addCommand(shardsCommand());
  program.addCommand(hostCommand());
  program.addCommand(mcpCommand());
  program.addCommand(a2aCommand());
  program.addCommand(gatewayCommand());
  program.addCommand(migrateCommand());
  program.addCommand(tenantsCommand());
  program.addCommand(scheduleCommand());
  program.addCommand(usageCommand());
  rejectJsonWhereNotTaken(program);
  return program;
}

/**
 * `--json` on a command that has no JSON output (`dev`, `chat`, `stop`) is a
 * usage error that says which commands take it, rather than
 * commander's bare "unknown option". Such commands get a hidden `--json`,
 * refused before their action runs.
 */
function rejectJsonWhereNotTaken(program: Command): void {
  const hasJson = (command: Command) => command.options.some((option) => option.long === "--json");
  // Leaf commands only (`history export`, not `history`): a hidden `--json` on
  // a parent would take the flag away from its subcommands.
  const leaves = (command: Command): Command[] =>
    command.commands.flatMap((sub) => (sub.commands.length > 0 ? leaves(sub) : [sub]));
  const nameOf = (command: Command): string =>
    command.parent !== null && command.parent !== program
      ? `${nameOf(command.parent)} ${command.name()}`
      : command.name();
  const commands = leaves(program);
  const taking = commands.filter(hasJson).map(nameOf);
  const refusing = new Set<Command>();
  for (const command of commands.filter((command) => !hasJson(command))) {
    command.addOption(new Option("--json").hideHelp());
    refusing.add(command);
  }
  program.hook("preAction", (_program, action) => {
    if (!refusing.has(action) || action.opts<{ json?: boolean }>().json !== true) return;
    action.error(
      `error: troupe ${nameOf(action)} does not take --json; these commands do: ${taking.join(", ")}.`,
      { code: "troupe.jsonNotTaken", exitCode: 1 },
    );
  });
}
