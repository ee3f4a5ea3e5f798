import { assertActorId } from "@troupe/protocol";
import { Command } from "commander";
import { randomUUID } from "node:crypto";
import { createInterface, type Interface } from "node:readline/promises";
import pc from "picocolors";
import type { TroupeClient } from "../../client/troupe-client.js";
import type { SessionEvent } from "../../client/session-event.js";
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
  lines.once("close", () => {
    closed = true;
    prompt.abort();
  });
  let running: AbortController | undefined;
  lines.on("SIGINT", () => {
    if (running === undefined) {
      lines.close();
      return;
    }
    write(colors.yellow("\ncancelling the run …\n"));
    void client.cancel(sessionId, { reason: "cancelled from troupe chat" }).catch(() => undefined);
  });
  // Approvals and questions found while an answer streams, asked one at a time.
  let prompts: Promise<void> = Promise.resolve();
  const askInline = (event: SessionEvent) => {
    prompts = prompts.then(() => askAbout(event, client, sessionId, lines, colors));
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
    running = new AbortController();
    // "agent ›" goes before the answer text; tool calls and approvals print between.
    let inAnswer = false;
    try {
      const outcome = await client.sendAndWait(
        sessionId,
        { text, ...(options.agent === undefined ? {} : { agent: options.agent }) },
        {
          signal: running.signal,
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
            if (type === "tool.approval_requested" || type === "question.asked") askInline(event);
          },
        },
      );
      await prompts;
      if (outcome.status === "completed") write("\n");
    } catch (error) {
      write(
        `\n${colors.red("error:")} ${error instanceof Error ? error.message : String(error)}\n`,
      );
    } finally {
      running = undefined;
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
): Promise<void> {
  const payload = event.event.payload as Record<string, unknown>;
  if (event.event.type === "tool.approval_requested") {
    const toolCallId = String(payload["toolCallId"]);
    // A subagent's call waits in its own session (`sub-…`), named in the payload.
    const owner = typeof payload["sessionId"] === "string" ? payload["sessionId"] : sessionId;
    const answer = (
      await lines.question(colors.yellow(`approve ${String(payload["tool"])}? [y/N] `))
    ).trim();
    if (/^y(es)?$/i.test(answer)) {
      await client.approve(owner, toolCallId);
    } else {
      await client.deny(owner, toolCallId, { reason: "denied in troupe chat" });
    }
    return;
  }
  const questionId = String(payload["questionId"]);
  const owner = typeof payload["sessionId"] === "string" ? payload["sessionId"] : sessionId;
  const answer = await lines.question(colors.yellow("your answer › "));
  await client.answer(owner, questionId, answer);
}
