import { assertActorId, messageWithCauses } from "@troupe/protocol";
import { Command } from "commander";
import { randomUUID } from "node:crypto";
import { createInterface, type Interface } from "node:readline/promises";
import pc from "picocolors";
import type { TroupeClient, SessionEvent } from "@troupe/client";
import { connectionOptions } from "../connection-options.js";
import type { ConnectionFlags } from "../connection-settings.js";
import { EventRenderer } from "../render/event-renderer.js";
import { withClient } from "../with-client.js";

/** Events chat does not show: the conversation itself says as much. */
const quietEvents = new Set(["message.accepted", "session.created", "session.idle", "run.started"]);

interface ChatOptions extends ConnectionFlags {
  readonly agent?: string;
  readonly color: boolean;
}

/**
 * `troupe chat [sessionId]`: an interactive conversation. Streams each answer,
 * shows tool calls, and asks approvals and the agent's questions inline.
 * Ctrl-C during an answer cancels the run; `/exit`, Ctrl-D or Ctrl-C at the
 * prompt leaves (the session stays; `troupe chat <id>` continues it).
 */
export function chatCommand(): Command {
  return connectionOptions(new Command("chat"))
    .description("talk to an agent interactively (answers stream, approvals asked inline)")
    .argument("[sessionId]", "session to talk in (default: a new one)")
    .option("--agent <name>", "agent for a new session (default: the host's default agent)")
    .option("--no-color", "plain text")
    .action(async (sessionIdArgument: string | undefined, options: ChatOptions) => {
      const sessionId = sessionIdArgument ?? `chat-${randomUUID().slice(0, 8)}`;
      assertActorId(sessionId);
      await withClient(options, (client) => chat(client, sessionId, options));
    });
}

async function chat(client: TroupeClient, sessionId: string, options: ChatOptions): Promise<void> {
  const color = options.color && pc.isColorSupported;
  const colors = pc.createColors(color);
  const renderer = new EventRenderer({ color, sessionId });
  const lines = createInterface({ input: process.stdin, output: process.stdout });
  const write = (text: string) => process.stdout.write(text);
  write(
    `${colors.bold(`troupe chat: session ${sessionId}`)}` +
      colors.dim("  (/exit or Ctrl-D leaves; Ctrl-C cancels an answer)\n"),
  );
  // A pending question() never settles when the interface closes (Node 20), so
  // each prompt gets a signal that Ctrl-C and Ctrl-D abort.
  let prompt = new AbortController();
  let closed = false;
  // The current turn: its wait, and the approvals and questions asked in it.
  let turn: { readonly wait: AbortController; readonly prompts: AbortController } | undefined;
  let interrupts = 0;
  lines.once("close", () => {
    closed = true;
    prompt.abort();
    turn?.prompts.abort();
    turn?.wait.abort(new Error("the chat was closed"));
  });
  lines.on("SIGINT", () => {
    if (turn === undefined) {
      lines.close();
      return;
    }
    interrupts += 1;
    if (interrupts > 1) {
      // No host may be there to cancel: stop waiting.
      turn.prompts.abort();
      turn.wait.abort(new Error("stopped waiting; the run may still go on"));
      return;
    }
    write(colors.yellow("\ncancelling the run … (Ctrl-C again stops waiting)\n"));
    void client.cancel(sessionId, { reason: "cancelled from troupe chat" }).catch(() => undefined);
  });
  // Approvals and questions found while an answer streams, asked one at a time;
  // a failed one is reported and does not block the next.
  let prompts: Promise<void> = Promise.resolve();
  const askInline = (event: SessionEvent, signal: AbortSignal) => {
    prompts = prompts
      .then(() => askAbout(event, client, sessionId, lines, colors, signal))
      .catch((error: unknown) => {
        if (signal.aborted) return;
        write(
          `${colors.red("error:")} ${error instanceof Error ? messageWithCauses(error) : String(error)}\n`,
        );
      });
  };
  while (!closed) {
    let text: string;
    try {
      prompt = new AbortController();
      text = (await lines.question(colors.cyan("you › "), { signal: prompt.signal })).trim();
    } catch {
      break; // closed (Ctrl-D or Ctrl-C at the prompt)
    }
    if (text === "") continue;
    if (text === "/exit" || text === "/quit") break;
    const current = { wait: new AbortController(), prompts: new AbortController() };
    turn = current;
    interrupts = 0;
    // "agent ›" goes before the answer text; tool calls and approvals print between.
    let inAnswer = false;
    try {
      const outcome = await client.sendAndWait(
        sessionId,
        { text, ...(options.agent === undefined ? {} : { agent: options.agent }) },
        {
          signal: current.wait.signal,
          onEvent: (event) => {
            const type = event.event.type;
            if (quietEvents.has(type)) return;
            const rendered = renderer.render(event);
            const answerText = type === "run.delta" || type === "run.completed";
            if (answerText && !inAnswer && rendered.trim() !== "") {
              write(colors.magenta("agent › "));
              inAnswer = true;
            } else if (!answerText && rendered !== "") {
              inAnswer = false;
            }
            write(rendered);
            if (type === "tool.approval_requested" || type === "question.asked") {
              askInline(event, current.prompts.signal);
            }
          },
        },
      );
      if (outcome.status === "completed") write("\n");
    } catch (error) {
      write(
        `\n${colors.red("error:")} ${error instanceof Error ? messageWithCauses(error) : String(error)}\n`,
      );
    } finally {
      // The run ended (or the wait did): a question still on screen is moot.
      current.prompts.abort();
      await prompts;
      turn = undefined;
    }
  }
  lines.close();
  write(colors.dim(`\nbye. Continue with: npx troupe chat ${sessionId}\n`));
}

async function askAbout(
  event: SessionEvent,
  client: TroupeClient,
  sessionId: string,
  lines: Interface,
  colors: ReturnType<typeof pc.createColors>,
  signal: AbortSignal,
): Promise<void> {
  const payload = event.event.payload as Record<string, unknown>;
  if (event.event.type === "tool.approval_requested") {
    const toolCallId = String(payload["toolCallId"]);
    // A subagent's call waits in its own session (`sub-…`); the parent forwards.
    const via = subagentOf(payload, sessionId);
    const answer = (
      await lines.question(colors.yellow(`approve ${String(payload["tool"])}? [y/N] `), { signal })
    ).trim();
    if (/^y(es)?$/i.test(answer)) {
      await client.approve(sessionId, toolCallId, via);
    } else {
      await client.deny(sessionId, toolCallId, { reason: "denied in troupe chat", ...via });
    }
    return;
  }
  const questionId = String(payload["questionId"]);
  const answer = await lines.question(colors.yellow("your answer › "), { signal });
  await client.answer(sessionId, questionId, answer, subagentOf(payload, sessionId));
}

/** `{ subagentSessionId }` when a subagent's session (not this chat's) asks. */
function subagentOf(
  payload: Record<string, unknown>,
  sessionId: string,
): { subagentSessionId?: string } {
  const owner = payload["sessionId"];
  return typeof owner === "string" && owner !== sessionId ? { subagentSessionId: owner } : {};
}
