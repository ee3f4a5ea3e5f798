import { assertActorId } from "@troupe/protocol";
import { Command } from "commander";
import pc from "picocolors";
import { connectionOptions } from "../connection-options.js";
import type { ConnectionFlags } from "../connection-settings.js";
import { withClient } from "../with-client.js";

interface JsonFlag extends ConnectionFlags {
  readonly json?: boolean;
}

/** Prints a confirmation line, or `{ ok: true, … }` with `--json`. */
function confirm(options: JsonFlag, line: string, data: Record<string, unknown>): void {
  process.stdout.write(
    options.json === true
      ? `${JSON.stringify({ ok: true, ...data })}\n`
      : `${pc.green("✔")} ${line}\n`,
  );
}

/**
 * `troupe approve|deny|answer|cancel|steer`: one message to a session's inbox
 * each (`tool.approve`, `tool.deny`, `question.answer`, `run.cancel`,
 * `run.steer`). The session id is checked before anything is published.
 */
export function sessionCommands(): Command[] {
  const approve = connectionOptions(new Command("approve"))
    .description("approve a tool call that waits for approval")
    .argument("<sessionId>", "the session")
    .argument("<toolCallId>", "the tool call (shown by tail and chat)")
    .option("--note <text>", "a note recorded with the approval")
    .option("--json", "print the result as JSON")
    .action(
      async (sessionId: string, toolCallId: string, options: JsonFlag & { note?: string }) => {
        assertActorId(sessionId);
        await withClient(options, (client) =>
          client.approve(
            sessionId,
            toolCallId,
            options.note === undefined ? {} : { note: options.note },
          ),
        );
        confirm(options, `approved ${toolCallId} in ${sessionId}`, { sessionId, toolCallId });
      },
    );
  const deny = connectionOptions(new Command("deny"))
    .description("deny a tool call that waits for approval")
    .argument("<sessionId>", "the session")
    .argument("<toolCallId>", "the tool call (shown by tail and chat)")
    .option("--reason <text>", "why; the model sees it")
    .option("--json", "print the result as JSON")
    .action(
      async (sessionId: string, toolCallId: string, options: JsonFlag & { reason?: string }) => {
        assertActorId(sessionId);
        await withClient(options, (client) =>
          client.deny(
            sessionId,
            toolCallId,
            options.reason === undefined ? {} : { reason: options.reason },
          ),
        );
        confirm(options, `denied ${toolCallId} in ${sessionId}`, { sessionId, toolCallId });
      },
    );
  const answer = connectionOptions(new Command("answer"))
    .description("answer a question the agent asked (ask_user)")
    .argument("<sessionId>", "the session")
    .argument("<questionId>", "the question (shown by tail and chat)")
    .argument("<text>", "your answer")
    .option("--json", "print the result as JSON")
    .action(async (sessionId: string, questionId: string, text: string, options: JsonFlag) => {
      assertActorId(sessionId);
      await withClient(options, (client) => client.answer(sessionId, questionId, text));
      confirm(options, `answered ${questionId} in ${sessionId}`, { sessionId, questionId });
    });
  const cancel = connectionOptions(new Command("cancel"))
    .description("cancel the session's current run")
    .argument("<sessionId>", "the session")
    .option("--run <runId>", "cancel only this run")
    .option("--reason <text>", "why")
    .option("--json", "print the result as JSON")
    .action(async (sessionId: string, options: JsonFlag & { run?: string; reason?: string }) => {
      assertActorId(sessionId);
      await withClient(options, (client) =>
        client.cancel(sessionId, {
          ...(options.run === undefined ? {} : { runId: options.run }),
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        }),
      );
      confirm(options, `cancel requested for ${sessionId}`, { sessionId });
    });
  const steer = connectionOptions(new Command("steer"))
    .description("add guidance to the session's current run (seen at its next model call)")
    .argument("<sessionId>", "the session")
    .argument("<text>", "the guidance")
    .option("--json", "print the result as JSON")
    .action(async (sessionId: string, text: string, options: JsonFlag) => {
      assertActorId(sessionId);
      await withClient(options, (client) => client.steer(sessionId, text));
      confirm(options, `steered ${sessionId}`, { sessionId });
    });
  return [approve, deny, answer, cancel, steer];
}
