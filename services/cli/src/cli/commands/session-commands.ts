import { assertActorId, type EventEnvelope } from "@troupe/protocol";
import { Command } from "commander";
import pc from "picocolors";
import { connectionOptions } from "../connection-options.js";
import type { ConnectionFlags } from "../connection-settings.js";
import type { CommandReceipt, TroupeClient } from "@troupe/client";
import { confirmCommand } from "../confirm-command.js";
import { withClient } from "../with-client.js";

interface JsonFlag extends ConnectionFlags {
  readonly json?: boolean;
}

/** What a command expects, and how its outcome is said. */
interface CommandSpec {
  /** Recognises the event showing the command took effect, if one is expected. */
  readonly effect?: (event: EventEnvelope) => boolean;
  /** The line once done (given the effect event) or accepted. */
  readonly done: (event?: EventEnvelope) => string;
  /** Said when the session accepted it but the effect did not follow. */
  readonly noEffect?: string;
  /** Said when nothing came back; default: no host answered. */
  readonly unanswered?: string;
  /** Whether a missing effect (or answer) is still success (exit code 0). */
  readonly missingEffectIsFine?: boolean;
}

/**
 * Sends a command, follows the session's verdict (and the command's effect)
 * for up to 5 s and reports it: a line, or `{ ok, status, … }` with `--json`.
 * Exit code 1 when the session refused it or the expected effect did not follow.
 */
async function runCommand(
  options: JsonFlag,
  sessionId: string,
  spec: CommandSpec,
  data: Record<string, unknown>,
  send: (client: TroupeClient) => Promise<CommandReceipt>,
): Promise<void> {
  const verdict = await withClient(options, (client) =>
    confirmCommand(client, sessionId, () => send(client), spec.effect),
  );
  const ok =
    verdict.status === "done" ||
    verdict.status === "accepted" ||
    (verdict.status !== "rejected" && spec.missingEffectIsFine === true);
  if (!ok) process.exitCode = 1;
  if (options.json === true) {
    const { status } = verdict;
    const event = verdict.status === "done" ? { event: verdict.event } : {};
    const refusal =
      verdict.status === "rejected" ? { code: verdict.code, reason: verdict.reason } : {};
    process.stdout.write(
      `${JSON.stringify({ ok, status, sessionId, ...data, ...refusal, ...event })}\n`,
    );
    return;
  }
  switch (verdict.status) {
    case "done":
      process.stdout.write(`${pc.green("✔")} ${spec.done(verdict.event)}\n`);
      return;
    case "accepted":
      process.stdout.write(`${pc.green("✔")} ${spec.done()}\n`);
      return;
    case "rejected":
      process.stderr.write(
        `${pc.red("error:")} ${sessionId} refused it (${verdict.code}): ${verdict.reason}\n`,
      );
      return;
    case "no_effect":
      (ok ? process.stdout : process.stderr).write(
        `${ok ? pc.yellow("…") : pc.red("error:")} ${spec.noEffect ?? "it had no effect"}\n`,
      );
      return;
    case "unanswered":
      (ok ? process.stdout : process.stderr).write(
        `${ok ? pc.yellow("…") : pc.red("error:")} ${
          spec.unanswered ??
          "sent; no host answered within 5 s (is a host running? `troupe status`)"
        }\n`,
      );
      return;
  }
}

/** The effect of an approval or denial: the call's `tool.approval_settled`. */
function settles(toolCallId: string): CommandSpec {
  return {
    effect: (event) =>
      event.type === "tool.approval_settled" &&
      (event.payload as { toolCallId?: unknown }).toolCallId === toolCallId,
    done: (event) => {
      const payload = (event?.payload ?? {}) as { decision?: string; alreadySettled?: boolean };
      const decision = (payload.decision ?? "settled").replace("_", " ");
      return payload.alreadySettled === true
        ? `${toolCallId} was already ${decision}`
        : `${toolCallId} ${decision}`;
    },
    noEffect: `the session accepted it, but no tool call ${toolCallId} was waiting for approval (unknown id?)`,
  };
}

/**
 * `troupe approve|deny|answer|cancel|steer`: one message to a session's inbox
 * each (`tool.approve`, `tool.deny`, `question.answer`, `run.cancel`,
 * `run.steer`). The session id is checked before anything is published; then
 * each follows the session for up to 5 s and says what happened: refused
 * (exit code 1), done (the call's `tool.approval_settled`, the
 * `question.answered`, the `run.cancelled`), or accepted without effect (an
 * unknown tool call or question id: exit code 1; nothing to cancel: 0).
 */
export function sessionCommands(): Command[] {
  const approve = decisionCommand("approve", "--note <text>", "a note recorded with the approval");
  const deny = decisionCommand("deny", "--reason <text>", "why; the model sees it");
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
          {
            effect: (event) =>
              event.type === "question.answered" &&
              (event.payload as { questionId?: unknown }).questionId === questionId,
            done: () => `${questionId} answered`,
            noEffect: `the session accepted it, but no question ${questionId} was waiting (unknown id, or answered already?)`,
          },
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
      await runCommand(
        options,
        sessionId,
        {
          effect: (event) => event.type === "run.cancelled",
          done: (event) =>
            `run ${String((event?.payload as { runId?: unknown } | undefined)?.runId)} cancelled`,
          noEffect: `no run of ${sessionId} was cancelled within 5 s (none was running?)`,
          unanswered: `no run of ${sessionId} was cancelled within 5 s (none was running, or no host is)`,
          missingEffectIsFine: true,
        },
        {},
        (client) =>
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
      await runCommand(
        options,
        sessionId,
        { done: () => `${sessionId} accepted the guidance` },
        {},
        (client) => client.steer(sessionId, text),
      );
    });
  return [approve, deny, answer, cancel, steer];
}

/**
 * `troupe approve` / `troupe deny`: the two differ in the verb and in the text
 * they carry (`--note` on an approval, `--reason` on a denial).
 */
function decisionCommand(verb: "approve" | "deny", textFlag: string, textHelp: string): Command {
  return connectionOptions(new Command(verb))
    .description(`${verb} a tool call that waits for approval`)
    .argument("<sessionId>", "the session")
    .argument("<toolCallId>", "the tool call (shown by tail and chat)")
    .option(textFlag, textHelp)
    .option("--subagent <sessionId>", "the subagent session the call belongs to (shown by tail)")
    .option("--json", "print the result as JSON")
    .action(
      async (
        sessionId: string,
        toolCallId: string,
        options: JsonFlag & { note?: string; reason?: string; subagent?: string },
      ) => {
        assertActorId(sessionId);
        const via = options.subagent === undefined ? {} : { subagentSessionId: options.subagent };
        await runCommand(options, sessionId, settles(toolCallId), { toolCallId }, (client) =>
          verb === "approve"
            ? client.approve(sessionId, toolCallId, {
                ...(options.note === undefined ? {} : { note: options.note }),
                ...via,
              })
            : client.deny(sessionId, toolCallId, {
                ...(options.reason === undefined ? {} : { reason: options.reason }),
                ...via,
              }),
        );
      },
    );
}
