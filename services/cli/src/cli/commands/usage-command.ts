import { Command } from "commander";
import { connectionOptions } from "@troupe/host/internal";
import type { UsageOptions } from "./usage-action.js";

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Whether `day` is a real calendar day written `YYYY-MM-DD` (2026-13-45 is not). */
const isCalendarDay = (day: string) => {
  const time = Date.parse(`${day}T00:00:00Z`);
  return (
    DAY_PATTERN.test(day) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(day)
  );
};

/**
 * `troupe usage --session <id> | --tree <id> | --agent <name> [--day YYYY-MM-DD]
 * [--json]`: the spend that model calls of agents with
 * `limits.budget` recorded — a session's own and its tree's, a session tree
 * attributed per subagent session, or an agent's calendar day. See
 * docs/capabilities/spend-limits.md.
 */
export function usageCommand(): Command {
  return connectionOptions(new Command("usage"))
    .description(
      "show spend (tokens, USD) recorded by spend limits: a session, a session tree per subagent, or an agent's day",
    )
    .option("--session <id>", "a session's own spend and its tree's")
    .option("--tree <id>", "a session tree (the session and its subagents' sessions), per session")
    .option(
      "--agent <name>",
      "an agent's spend on one calendar day (its trees, subagents included)",
    )
    .option("--day <YYYY-MM-DD>", "with --agent: the day (default: today in UTC)")
    .option("--json", "print the report as JSON")
    .action(async (options: UsageOptions, command: Command) => {
      const chosen = [options.session, options.tree, options.agent].filter(
        (value) => value !== undefined,
      );
      if (chosen.length !== 1)
        command.error("error: give exactly one of --session, --tree, --agent");
      if (
        options.day !== undefined &&
        (options.agent === undefined || !isCalendarDay(options.day))
      ) {
        command.error("error: --day takes YYYY-MM-DD and goes with --agent");
      }
      const { usageAction } = await import("./usage-action.js");
      await usageAction(options);
    });
}
