import { randomUUID } from "node:crypto";
import { assertActorId } from "@troupe/protocol";
import { Command } from "commander";
import pc from "picocolors";
import { confirmCommand } from "../confirm-command.js";
import { connectionOptions } from "@troupe/host/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import { withClient } from "../with-client.js";

interface ForkFlags extends ConnectionFlags {
  readonly at?: string;
  readonly to?: string;
  readonly json?: boolean;
}

/**
 * The fork point `--at` names: digits are an events-stream sequence (what
 * `troupe tail --sequence` shows), anything else a run id (`r2`).
 *
 * @param at - the flag's value, or undefined (the last ended run).
 * @returns `{ atSequence }`, `{ atRunId }` or `{}`.
 */
export function forkPointOf(at: string | undefined): { atSequence?: number; atRunId?: string } {
  if (at === undefined) return {};
  return /^\d+$/u.test(at) ? { atSequence: Number(at) } : { atRunId: at };
}

/**
 * `troupe fork <sessionId> [--at <seq|runId>] [--to <newId>]`
 * (docs/capabilities/fork.md): forks a session into a new one that shares its
 * transcript up to the point (not copied) and goes on independently. Prints the
 * new session's id (or `{ ok, verdict, sessionId, from, … }` with `--json`).
 * Exit code 0 when the fork was made; 1 when it was refused (`unknown_session`,
 * `fork_point_out_of_range`, `session_exists`, …) or no host answered in 5 s.
 */
export function forkCommand(): Command {
  return connectionOptions(new Command("fork"))
    .description("fork a session into a new one sharing its transcript up to a point")
    .argument("<sessionId>", "the session to fork")
    .option(
      "--at <seq|runId>",
      "the point: an events-stream sequence or a run id (default: the last ended run)",
    )
    .option("--to <newId>", "the new session's id (default: <sessionId>-fork-<8 hex>)")
    .option("--json", "print the result as JSON")
    .action(async (from: string, options: ForkFlags) => {
      assertActorId(from);
      const to = options.to ?? `${from}-fork-${randomUUID().replaceAll("-", "").slice(0, 8)}`;
      assertActorId(to);
      const point = forkPointOf(options.at);
      const outcome = await withClient(options, (client) =>
        confirmCommand(client, to, () => client.fork(from, { to, ...point })),
      );
      const ok = outcome.verdict === "applied";
      if (!ok) process.exitCode = 1;
      if (options.json === true) {
        const details =
          outcome.verdict === "rejected"
            ? { code: outcome.code, reason: outcome.reason }
            : outcome.verdict === "no_verdict" || outcome.reason === undefined
              ? {}
              : { reason: outcome.reason };
        process.stdout.write(
          `${JSON.stringify({ ok, verdict: outcome.verdict, sessionId: to, from, ...point, ...details })}\n`,
        );
        return;
      }
      if (ok) {
        process.stdout.write(`${pc.green("✔")} forked ${from} into ${to}\n${to}\n`);
      } else if (outcome.verdict === "rejected") {
        process.stderr.write(
          `${pc.red("error:")} ${to} refused the fork (${outcome.code}): ${outcome.reason}\n`,
        );
      } else if (outcome.verdict === "no_verdict") {
        process.stderr.write(
          `${pc.red("error:")} sent; no verdict within 5 s: no host is running, or none owns the session yet (\`troupe status\`)\n`,
        );
      } else {
        process.stderr.write(`${pc.red("error:")} ${outcome.verdict}: ${outcome.reason ?? ""}\n`);
      }
    });
}
