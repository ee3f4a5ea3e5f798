import { assertActorId } from "@troupe/protocol";
import { Command, Option } from "commander";
import pc from "picocolors";
import { connectionOptions } from "../connection-options.js";
import type { ConnectionFlags } from "../connection-settings.js";
import { positiveInteger } from "../parse-number.js";
import { EventRenderer } from "../render/event-renderer.js";
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
 * history). `--until-idle` exits once it has caught up and no run is in
 * progress (after `session.idle`, `session.closed`, a rejected or duplicate
 * message, or an accepted command such as `tool.approve`). `--json` prints one `{ sequence, subject, event }` object per line.
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
    .option("--until-idle", "exit once the session is idle and nothing follows")
    .option("--json", "one JSON object per event and line")
    .option("--sequence", "show each event's stream sequence")
    .option("--no-color", "plain text")
    .action(async (sessionId: string, options: TailOptions) => {
      assertActorId(sessionId);
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once("SIGINT", onSignal);
      try {
        await withClient(options, async (client) => {
          const renderer = new EventRenderer({
            color: options.color && pc.isColorSupported,
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
          // A run is in progress from run.started until the session is idle again;
          // --until-idle stops once caught up (nothing pending) with none in progress.
          let running = false;
          for await (const event of client.events(sessionId, {
            fromSequence,
            signal: abort.signal,
          })) {
            // A delta's sequence is that of the durable event before it (issue #11).
            const position =
              event.deltaSequence === undefined ? event.sequence : event.sequence + 1;
            if (position >= printFrom) {
              process.stdout.write(
                options.json === true ? `${JSON.stringify(event)}\n` : renderer.render(event),
              );
            }
            const type = event.event.type;
            const isSessionEvent = event.event.meta.actor === `session/${sessionId}`;
            if (type === "run.started" && isSessionEvent) running = true;
            if ((type === "session.idle" || type === "session.closed") && isSessionEvent) {
              running = false;
            }
            // Events after which nothing more is coming unless someone sends again
            // (a command's verdict among them): a user.message that was accepted is
            // followed by its run.started.
            const settled =
              type === "session.idle" ||
              type === "session.closed" ||
              type === "message.rejected" ||
              type === "message.duplicate" ||
              type === "command.settled" ||
              (type === "message.accepted" &&
                (event.event.payload as { type?: unknown }).type !== "user.message");
            if (options.untilIdle === true && settled && !running && event.pending === 0) break;
          }
        });
      } finally {
        process.off("SIGINT", onSignal);
      }
    });
}
