import { assertActorId } from "@troupe/protocol";
import { Command } from "commander";
import pc from "picocolors";
import { connectionOptions } from "../connection-options.js";
import type { ConnectionFlags } from "../connection-settings.js";
import type { CommandReceipt } from "../../client/send-receipt.js";
import type { TroupeClient } from "../../client/troupe-client.js";
import { confirmCommand } from "../confirm-command.js";
import { withClient } from "../with-client.js";

interface JsonFlag extends ConnectionFlags {
  readonly json?: boolean;
}

/**
 * Sends a command, waits for the session's verdict and reports it: a line (or
 * `{ ok, status, … }` with `--json`); exit code 1 when the session rejected it.
 */
async function runCommand(
  options: JsonFlag,
  sessionId: string,
  done: string,
  data: Record<string, unknown>,
  send: (client: TroupeClient) => Promise<CommandReceipt>,
): Promise<void> {
  const verdict = await withClient(options, (client) =>
    confirmCommand(client, sessionId, () => send(client)),
  );
  if (options.json === true) {
    process.stdout.write(
      `${JSON.stringify({ ok: verdict.status !== "rejected", ...verdict, sessionId, ...data })}\n`,
    );
  } else if (verdict.status === "accepted") {
    process.stdout.write(`${pc.green("✔")} ${done}\n`);
  } else if (verdict.status === "unanswered") {
    process.stdout.write(
      `${pc.yellow("…")} sent; no host answered within 5 s (is a host running? \`troupe status\`)\n`,
    );
  }
  if (verdict.status === "rejected") {
    if (options.json !== true) {
      process.stderr.write(
        `${pc.red("error:")} ${sessionId} refused it (${verdict.code}): ${verdict.reason}\n`,
      );
    }
    process.exitCode = 1;
  }
}

/**
 * `troupe approve|deny|answer|cancel|steer`: one message to a session's inbox
 * each (`tool.approve`, `tool.deny`, `question.answer`, `run.cancel`,
 * `run.steer`). The session id is checked before anything is published; then
 * each waits up to 5 s for the session's `message.accepted` or
 * `message.rejected` and says which (exit code 1 when rejected).
 */
export function sessionCommands(): Command[] {
  const approve = connectionOptions(new Command("approve"))
    .description("approve a tool call that waits for approval")
    .argument("<sessionId>", "the session")
    .argument("<toolCallId>", "the tool call (shown by tail and chat)")
    .option("--note <text>", "a note recorded with the approval")
    .option("--subagent <sessionId>", "the subagent session the call belongs to (shown by tail)")
    .option("--json", "print the result as JSON")
    .action(
      async (
        sessionId: string,
        toolCallId: string,
        options: JsonFlag & { note?: string; subagent?: string },
      ) => {
        assertActorId(sessionId);
        await runCommand(
          options,
          sessionId,
          `${sessionId} accepted the approval of ${toolCallId}`,
          { toolCallId },
          (client) =>
            client.approve(sessionId, toolCallId, {
              ...(options.note === undefined ? {} : { note: options.note }),
              ...(options.subagent === undefined ? {} : { subagentSessionId: options.subagent }),
            }),
        );
      },
    );
  const deny = connectionOptions(new Command("deny"))
    .description("deny a tool call that waits for approval")
    .argument("<sessionId>", "the session")
    .argument("<toolCallId>", "the tool call (shown by tail and chat)")
    .option("--reason <text>", "why; the model sees it")
    .option("--subagent <sessionId>", "the subagent session the call belongs to (shown by tail)")
    .option("--json", "print the result as JSON")
    .action(
      async (
        sessionId: string,
        toolCallId: string,
        options: JsonFlag & { reason?: string; subagent?: string },
      ) => {
        assertActorId(sessionId);
        await runCommand(
          options,
          sessionId,
          `${sessionId} accepted the denial of ${toolCallId}`,
          { toolCallId },
          (client) =>
            client.deny(sessionId, toolCallId, {
              ...(options.reason === undefined ? {} : { reason: options.reason }),
              ...(options.subagent === undefined ? {} : { subagentSessionId: options.subagent }),
            }),
        );
      },
    );
  const answer = connectionOptions(new Command("answer"))
    .description("answer a question the agent asked (ask_user)")
    .argument("<sessionId>", "the session")
    .argument("<questionId>", "the question (shown by tail and chat)")
    .argument("<text>", "your answer")
    .option("--subagent <sessionId>", "the subagent session that asked (shown by tail)")
    .option("--json", "print the result as JSON")
    .action(
      async (
        sessionId: string,
        questionId: string,
        text: string,
        options: JsonFlag & { subagent?: string },
      ) => {
        assertActorId(sessionId);
        await runCommand(
          options,
          sessionId,
          `${sessionId} accepted the answer to ${questionId}`,
          { questionId },
          (client) =>
            client.answer(
              sessionId,
              questionId,
              text,
              options.subagent === undefined ? {} : { subagentSessionId: options.subagent },
            ),
        );
      },
    );
  const cancel = connectionOptions(new Command("cancel"))
    .description("cancel the session's current run")
    .argument("<sessionId>", "the session")
    .option("--run <runId>", "cancel only this run")
    .option("--reason <text>", "why")
    .option("--json", "print the result as JSON")
    .action(async (sessionId: string, options: JsonFlag & { run?: string; reason?: string }) => {
      assertActorId(sessionId);
      await runCommand(options, sessionId, `${sessionId} accepted the cancellation`, {}, (client) =>
        client.cancel(sessionId, {
          ...(options.run === undefined ? {} : { runId: options.run }),
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        }),
      );
    });
  const steer = connectionOptions(new Command("steer"))
    .description("add guidance to the session's current run (seen at its next model call)")
    .argument("<sessionId>", "the session")
    .argument("<text>", "the guidance")
    .option("--json", "print the result as JSON")
    .action(async (sessionId: string, text: string, options: JsonFlag) => {
      assertActorId(sessionId);
      await runCommand(options, sessionId, `${sessionId} accepted the guidance`, {}, (client) =>
        client.steer(sessionId, text),
      );
    });
  return [approve, deny, answer, cancel, steer];
}
