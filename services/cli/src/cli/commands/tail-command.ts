import { assertActorId } from "@troupe/protocol";
import { Command, Option } from "commander";
import pc from "picocolors";
import { connectionOptions, positiveInteger } from "@troupe/host/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import { EventRenderer } from "../render/event-renderer.js";
import {
  SessionProgress,
  settleCommand,
  WAITING_ON_HUMAN_EXIT_CODE,
  type UntilIdleStop,
} from "../session-progress.js";
import { withClient } from "../with-client.js";

interface TailOptions extends ConnectionFlags {
  readonly from?: number;
  readonly untilIdle?: boolean;
  readonly json?: boolean;
  readonly color: boolean;
  readonly sequence?: boolean;
}

/**
 * `troupe tail <sessionId> [--from <seq>] [--until-idle]`: prints a session's
 * events as they happen (answer text inline, tool calls, approvals, questions),
 * or with `--from` replays the stored ones first (`--from 1`: the whole
 * history). `--json` prints one `{ sequence, subject, event }` object per line.
 *
 * `--until-idle` exits once it has read every stored event and the session is
 * idle (exit 0: after `session.idle`, `session.closed`, a rejected or duplicate
 * message, or an accepted command such as `tool.approve`, with no run in
 * progress) or waits on a human (exit {@link WAITING_ON_HUMAN_EXIT_CODE}: a
 * tool call waits for approval or a question for its answer; one
 * `· waiting for …` line each, with the command that settles it). With
 * `--json` its last line is `{ "stop": "idle" }` or
 * `{ "stop": "waiting_on_human", "waits": HumanWait[] }` (see
 * `SessionProgress`).
 */
export function tailCommand(): Command {
  return connectionOptions(new Command("tail"))
    .description("follow a session's events (answer text, tool calls, approvals)")
    .argument("<sessionId>", "the session")
    .addOption(
      new Option(
        "--from <sequence>",
        "replay from this events-stream sequence (1: everything)",
      ).argParser(positiveInteger),
    )
    .option(
      "--until-idle",
      "exit once the session is idle (exit 0) or waits on a human: an approval or " +
        `a question (exit ${WAITING_ON_HUMAN_EXIT_CODE})`,
    )
    .option(
      "--json",
      'one JSON object per event and line; with --until-idle a last line {"stop":"idle"} ' +
        'or {"stop":"waiting_on_human","waits":[…]}',
    )
    .option("--sequence", "show each event's stream sequence")
    .option("--no-color", "plain text")
    .addHelpText(
      "after",
      `\nExit codes: 0 idle (or stopped with Ctrl-C), ${WAITING_ON_HUMAN_EXIT_CODE} waiting on a human ` +
        "(--until-idle), 1 error.",
    )
    .action(async (sessionId: string, options: TailOptions) => {
      assertActorId(sessionId);
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once("SIGINT", onSignal);
      try {
        await withClient(options, async (client) => {
          const color = options.color && pc.isColorSupported;
          const renderer = new EventRenderer({
            color,
            sessionId,
            showSequence: options.sequence === true,
          });
          const printFrom = options.from ?? (await client.lastSequence()) + 1;
          // --until-idle needs to know whether a run is in progress, which only the
          // history says: read it from the start, print from printFrom.
          const fromSequence = options.untilIdle === true ? 1 : printFrom;
          if (options.untilIdle === true && (await client.storedEventCount(sessionId)) === 0) {
            process.stderr.write(
              pc.dim(
                `session ${sessionId} has no events yet; waiting for its first run (Ctrl-C stops)\n`,
              ),
            );
          }
          if (options.json !== true && options.from === undefined) {
            process.stderr.write(pc.dim(`following ${sessionId} (Ctrl-C stops)\n`));
          }
          const progress = new SessionProgress(sessionId);
          let stop: UntilIdleStop | undefined;
          for await (const event of client.events(sessionId, {
            fromSequence,
            signal: abort.signal,
          })) {
            // A delta's sequence is that of the durable event before it.
            const position =
              event.deltaSequence === undefined ? event.sequence : event.sequence + 1;
            if (position >= printFrom) {
              process.stdout.write(
                options.json === true ? `${JSON.stringify(event)}\n` : renderer.render(event),
              );
            }
            stop = progress.observe(event);
            if (options.untilIdle === true && stop !== undefined) break;
          }
          if (options.untilIdle !== true || stop === undefined) return;
          if (options.json === true) {
            process.stdout.write(`${JSON.stringify(stop)}\n`);
          } else if (stop.stop === "waiting_on_human") {
            const colors = pc.createColors(color);
            for (const wait of stop.waits) {
              const what =
                wait.kind === "approval"
                  ? `approval of ${wait.tool} ${wait.toolCallId}`
                  : `an answer to ${wait.questionId} (${wait.text})`;
              process.stdout.write(
                colors.yellow(`· waiting for ${what}: ${settleCommand(sessionId, wait)}\n`),
              );
            }
          }
          if (stop.stop === "waiting_on_human") process.exitCode = WAITING_ON_HUMAN_EXIT_CODE;
        });
      } finally {
        process.off("SIGINT", onSignal);
      }
    });
}
