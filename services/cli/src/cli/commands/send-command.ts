import {
  assertActorId,
  MAX_TEXT_LENGTH,
  PRIORITY_CLASSES,
  type MediaRef,
  type PriorityClass,
} from "@troupe/protocol";
import { Command, Option } from "commander";
import pc from "picocolors";
import type { RunOutcome } from "@troupe/client";
import { checkMessageTextLength, readMessageText } from "../message-text.js";
import { connectionOptions, positiveInteger } from "@troupe/host/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import { EventRenderer } from "../render/event-renderer.js";
import { withClient } from "../with-client.js";
import { attachOption, uploadAttachments } from "../attach-files.js";

interface SendOptions extends ConnectionFlags {
  readonly wait?: boolean;
  readonly agent?: string;
  readonly id?: string;
  readonly timeout: number;
  readonly json?: boolean;
  readonly attach?: string[];
  readonly priority?: PriorityClass;
}

/** Events `send --wait` does not show on stderr: the answer and any error are printed at the end. */
const hiddenEvents = new Set([
  "run.delta",
  "run.completed",
  "message.accepted",
  "message.rejected",
  "session.idle",
]);

/**
 * `troupe send <sessionId> <text> [--wait]`: publishes a `user.message`. With
 * `--wait` it shows tool calls and approvals on stderr, prints the answer on
 * stdout and exits 0, or exits 1 with the error when the run fails or is
 * cancelled. `<text>` `-` reads the text from stdin (one argument is capped at
 * 128 KiB by the OS), without its final line break. A text over
 * `MAX_TEXT_LENGTH` (262,144 characters) is refused with
 * `MessageTextTooLongError` (exit 1) before anything is sent.
 */
export function sendCommand(): Command {
  return connectionOptions(new Command("send"))
    .description("send a user message to a session (the text, or - to read it from stdin)")
    .argument("<sessionId>", "the session (created on first message)")
    .argument(
      "<text>",
      `the message; - reads it from stdin (without its final line break). At most ` +
        `${MAX_TEXT_LENGTH.toLocaleString("en-US")} characters (the encoded message at most 1 MiB)`,
    )
    .option("--wait", "wait for the run and print its answer")
    .option("--agent <name>", "agent for a new session (default: the host's default agent)")
    .option("--id <clientMessageId>", "idempotency key: resending the same id starts no second run")
    .addOption(
      new Option("--timeout <ms>", "with --wait, give up after this many ms")
        .default(300_000)
        .argParser(positiveInteger),
    )
    .option("--json", "print the receipt (or, with --wait, the run outcome) as JSON")
    .addOption(
      new Option(
        "--priority <class>",
        "scheduling class of the message and its run (docs/operating/flow-control.md; default: default)",
      ).choices(PRIORITY_CLASSES),
    )
    .addOption(attachOption("the message"))
    .action(async (sessionId: string, text: string, options: SendOptions) => {
      assertActorId(sessionId);
      if (text === "-") {
        if (process.stdin.isTTY === true) {
          process.stderr.write(pc.dim("reading the message from stdin; end it with Ctrl-D\n"));
        }
        text = await readMessageText(process.stdin);
      } else {
        checkMessageTextLength(text, "the argument");
      }
      if (text.trim() === "") throw new RangeError("the message text is empty");
      const fields = {
        text,
        ...(options.agent === undefined ? {} : { agent: options.agent }),
        ...(options.id === undefined ? {} : { clientMessageId: options.id }),
        ...(options.priority === undefined ? {} : { priority: options.priority }),
      };
      await withClient(options, async (client) => {
        // Attachments are uploaded first; the message holds their references.
        const attachments = await uploadAttachments(client, options.attach ?? []);
        const message = attachments.length === 0 ? fields : { ...fields, attachments };
        // Said on stderr, so a user sees the files went along (the demo model ignores them).
        if (attachments.length > 0 && options.json !== true) {
          process.stderr.write(
            pc.dim(`· attached: ${attachments.map(describeAttachment).join(", ")}\n`),
          );
        }
        if (options.wait !== true) {
          const receipt = await client.send(sessionId, message);
          process.stdout.write(
            options.json === true
              ? `${JSON.stringify(receipt)}\n`
              : `${pc.green("✔")} sent to ${sessionId} (client message id ${receipt.clientMessageId}` +
                  `${receipt.duplicate ? ", a duplicate: no new run" : ""})\n`,
          );
          return;
        }
        const renderer = new EventRenderer({ color: pc.isColorSupported, sessionId });
        // Ctrl-C stops waiting, not the run: say how to follow or cancel it.
        const onInterrupt = () => {
          process.stderr.write(
            `\n${pc.yellow("stopped waiting;")} the run goes on. ` +
              `Follow it with \`troupe tail ${sessionId}\`, cancel it with \`troupe cancel ${sessionId}\`.\n`,
          );
          process.exit(130);
        };
        process.once("SIGINT", onInterrupt);
        // Runs whose end was shown as it happened (✗ run r1 failed …): not said twice.
        const endedRuns = new Set<string>();
        const outcome = await client.sendAndWait(sessionId, message, {
          timeoutMs: options.timeout,
          onEvent: (event) => {
            if (hiddenEvents.has(event.event.type)) return;
            const text = renderer.render(event);
            if (text === "") return;
            process.stderr.write(text);
            if (event.event.type === "run.failed" || event.event.type === "run.cancelled") {
              endedRuns.add(event.event.payload.runId);
            }
          },
        });
        process.off("SIGINT", onInterrupt);
        printOutcome(outcome, options.json === true, endedRuns.has(outcome.runId));
      });
    });
}

/**
 * The run's outcome: the answer on stdout, a failure or cancellation on stderr
 * (unless `shown` already, as an event line), exit code 1 for those.
 */
function printOutcome(outcome: RunOutcome, json: boolean, shown: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(outcome)}\n`);
  switch (outcome.status) {
    case "completed":
      if (!json) process.stdout.write(`${outcome.text}\n`);
      return;
    case "failed":
      if (!json && !shown)
        process.stderr.write(`${pc.red("run failed")} (${outcome.code}): ${outcome.message}\n`);
      process.exitCode = 1;
      return;
    case "cancelled":
      if (!json && !shown) {
        process.stderr.write(
          `${pc.yellow("run cancelled")}${outcome.reason === undefined ? "" : `: ${outcome.reason}`}\n`,
        );
      }
      process.exitCode = 1;
      return;
  }
}

/** `name (size)` of an uploaded attachment, e.g. `cat.png (18.0 MiB)`. */
function describeAttachment(ref: MediaRef): string {
  const size =
    ref.size < 1024
      ? `${ref.size} bytes`
      : ref.size < 1024 * 1024
        ? `${(ref.size / 1024).toFixed(1)} KiB`
        : `${(ref.size / 1024 / 1024).toFixed(1)} MiB`;
  return `${ref.name ?? ref.digest} (${size})`;
}
