import { Command, Option } from "commander";
import { connectionOptions, positiveInteger } from "@troupe/host/internal";
import { parseSince } from "../parse-since.js";
import type { HistoryExportOptions, JsonOptions } from "./admin-actions.js";

/**
 * `troupe inspect`, `troupe status`, `troupe replay`, `troupe deadletters` and
 * `troupe history export` / `troupe history replay`:
 * read-only views of a deployment (Redis snapshots, leases and timers; JetStream
 * consumers, journal and dead letters). See `services/cli/src/admin/README.md` for what each reads.
 */
export function adminCommands(): Command[] {
  const inspect = connectionOptions(new Command("inspect"))
    .description("show an actor: snapshot generations, state, pending effects and timers, lease")
    .argument("<actor>", "actor address kind/id, e.g. session/demo-1 or run/demo-1")
    .option("--json", "print the inspection as JSON")
    .action(async (address: string, options: JsonOptions) => {
      const { inspectAction } = await import("./admin-actions.js");
      await inspectAction(address, options);
    });
  const status = connectionOptions(new Command("status"))
    .description("show hosts, shard ownership and inbox lag of the deployment")
    .option("--json", "print the status as JSON")
    .action(async (options: JsonOptions) => {
      const { statusAction } = await import("./admin-actions.js");
      await statusAction(options);
    });
  const replay = connectionOptions(new Command("replay"))
    .description("replay an actor's journal and say whether it reproduces the stored snapshot")
    .argument("<actor>", "actor address kind/id, e.g. session/demo-1")
    .option(
      "--agent <module>",
      "agent module the hosts serve (default: the running troupe dev's, else the demo agent)",
    )
    .option("--json", "print the report as JSON")
    .action(async (address: string, options: JsonOptions & { agent?: string }) => {
      const { replayAction } = await import("./admin-actions.js");
      await replayAction(address, options);
    });
  const deadLetters = connectionOptions(new Command("deadletters"))
    .alias("dead-letters")
    .description(
      "list the newest dead letters (rejected messages, publishes that matched no route): " +
        "code, subject, the body's start, reason",
    )
    .option("--limit <count>", "how many, newest first", positiveInteger, 20)
    .option(
      "--since <duration|time>",
      "only those stored since: a duration back from now (90s, 10m, 2h, 1d) or a time (ISO 8601)",
      (value: string) => parseSince(value, Date.now()),
    )
    .option(
      "--json",
      "print the dead letters as a JSON array (with the original body in base64 and its start as text)",
    )
    .action(async (options: JsonOptions & { limit: number; since?: number }) => {
      const { deadLettersAction } = await import("./admin-actions.js");
      await deadLettersAction(options);
    });
  const history = new Command("history").description(
    "recorded histories: an actor's (or a conversation's) journal and snapshot generations as a file that replays offline",
  );
  history.addCommand(
    connectionOptions(new Command("export"))
      .description(
        "export an actor's recorded history (journal + generations, checked to reproduce the stored snapshots)",
      )
      .argument("<actor>", "actor address kind/id, e.g. session/demo-1")
      .option("--tree", "also export the actors it sent messages to: run, tool calls, subagents")
      .option("-o, --output <file>", "write to this file (default: stdout)")
      .addOption(
        new Option("--format <format>", "file format").choices(["json", "ndjson"]).default("json"),
      )
      .option(
        "--agent <module>",
        "agent module the hosts serve (default: the running troupe dev's, else the demo agent)",
      )
      .option(
        "--cassette <file>",
        "also write a model cassette of the conversation (implies --tree): each model request rendered again, with the answer it got, for ModelCassette replay in tests",
      )
      .action(async (address: string, options: HistoryExportOptions) => {
        const { historyExportAction } = await import("./admin-actions.js");
        await historyExportAction(address, options);
      }),
  );
  history.addCommand(
    new Command("replay")
      .description(
        "replay a recorded history (or every *.json / *.ndjson under a folder) offline with this release's agent machines; exit 1 on a divergence",
      )
      .argument("<file-or-dir>", "a history file, or a folder of them")
      .option(
        "--agent <module>",
        "agent module whose declared versions are compared with the recorded ones (informative)",
      )
      .option("--json", "print the report as JSON")
      .action(async (path: string, options: { agent?: string; json?: boolean }) => {
        const { historyReplayAction } = await import("./history-replay-action.js");
        await historyReplayAction(path, options);
      }),
  );
  return [inspect, status, replay, deadLetters, history];
}
