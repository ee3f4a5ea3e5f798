import { assertActorId, type EventEnvelope } from "@troupe/protocol";
import { Command } from "commander";
import pc from "picocolors";
import { connectionOptions } from "@troupe/host/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import type { CommandReceipt, TroupeClient } from "@troupe/client";
import { confirmCommand } from "../confirm-command.js";
import { withClient } from "../with-client.js";

interface JsonFlag extends ConnectionFlags {
  readonly json?: boolean;
}

/** How a command's success is said. */
interface CommandSpec {
  /** The line when the session applied it (given the `command.settled` event). */
  readonly applied: (event: EventEnvelope<"command.settled">) => string;
}

/**
 * Sends a command, waits (up to 5 s) for the session's verdict on it and
 * reports it: a line, or `{ ok, verdict, … }` with `--json`. Exit code 0 only
 * when the session applied it; 1 when it did nothing (already settled, nothing
 * to act on, unknown id), refused it, or no verdict came (no host).
 */
async function runCommand(
  options: JsonFlag,
  sessionId: string,
  spec: CommandSpec,
  data: Record<string, unknown>,
  send: (client: TroupeClient) => Promise<CommandReceipt>,
): Promise<void> {
  const outcome = await withClient(options, (client) =>
    confirmCommand(client, sessionId, () => send(client)),
  );
  const ok = outcome.verdict === "applied";
  if (!ok) process.exitCode = 1;
  if (options.json === true) {
    const details =
      outcome.verdict === "no_verdict"
        ? {}
        : {
            commandId: outcome.commandId,
            ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
            ...(outcome.verdict === "rejected" ? { code: outcome.code } : {}),
            event: outcome.event,
          };
    process.stdout.write(
      `${JSON.stringify({ ok, verdict: outcome.verdict, sessionId, ...data, ...details })}\n`,
    );
    return;
  }
  const fail = (line: string) => process.stderr.write(`${pc.red("error:")} ${line}\n`);
  switch (outcome.verdict) {
    case "applied":
      process.stdout.write(`${pc.green("✔")} ${spec.applied(outcome.event)}\n`);
      return;
    case "already_settled":
      fail(`already settled: ${outcome.reason ?? "its target was decided before"}`);
      return;
    case "nothing_to_act_on":
      fail(`nothing to act on: ${outcome.reason ?? "the session had nothing to do"}`);
      return;
    case "unknown_id":
      fail(`unknown id: ${outcome.reason ?? "the session has no such tool call or question"}`);
      return;
    case "rejected":
      fail(`${sessionId} refused it (${outcome.code}): ${outcome.reason}`);
      return;
    case "no_verdict":
      fail(
        "sent; no verdict within 5 s: no host is running, or none owns the session yet (`troupe status`)",
      );
      return;
  }
}

/** The line of an applied approval or denial. */
function settles(toolCallId: string): CommandSpec {
  return {
    applied: (event) => `${toolCallId} ${event.payload.decision ?? "settled"}`,
  };
}

/**
 * `troupe approve|deny|answer|cancel|steer|compact`: one message to a session's inbox
 * each (`tool.approve`, `tool.deny`, `question.answer`, `run.cancel`,
 * `run.steer`, `session.compact`). The session id is checked before anything is published; then
 * each waits (up to 5 s) for the session's verdict on it (`command.settled` or
 * `message.rejected`, matched by the command's id) and says it: exit code 0
 * when applied; 1 when already settled, nothing to act on, an unknown id,
 * refused, or no verdict (no host) — decision 0013.
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
          { applied: () => `${questionId} answered` },
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
        { applied: (event) => `run ${event.payload.runId ?? "?"} is being cancelled` },
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
        {
          applied: (event) =>
            `${sessionId} accepted the guidance${event.payload.runId === undefined ? "" : ` (run ${event.payload.runId})`}`,
        },
        {},
        (client) => client.steer(sessionId, text),
      );
    });
  const compact = connectionOptions(new Command("compact"))
    .description(
      "compact the session's transcript: its next model call summarises the older entries first",
    )
    .argument("<sessionId>", "the session")
    .option("--json", "print the result as JSON")
    .action(async (sessionId: string, options: JsonFlag) => {
      assertActorId(sessionId);
      await runCommand(
        options,
        sessionId,
        {
          applied: () =>
            `${sessionId} compacts at its next model call (watch for session.compacted)`,
        },
        {},
        (client) => client.compact(sessionId),
      );
    });
  return [approve, deny, answer, cancel, steer, compact];
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
