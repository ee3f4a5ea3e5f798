import { assertActorId, messageWithCauses, type MediaRef } from "@troupe/protocol";
import { Command } from "commander";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import pc from "picocolors";
import {
  StreamsMissingError,
  type RunOutcome,
  type TroupeClient,
  type SessionEvent,
} from "@troupe/client";
import { attachOption, parseAttachSpec, uploadAttachments } from "../attach-files.js";
import { connectionOptions } from "@troupe/host/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import { InputQueue } from "../input-queue.js";
import { checkMessageTextLength } from "../message-text.js";
import { MutedOutput } from "../muted-output.js";
import { EventRenderer } from "../render/event-renderer.js";
import {
  CLUSTER_GONE_EXIT_CODE,
  clusterLossMessage,
  isNatsTimeout,
  LOST_CONNECTION_GRACE_MS,
  NO_HOST_ANSWER_MS,
  type ClusterLoss,
} from "../cluster-loss.js";
import {
  humanWaitKey,
  humanWaitOf,
  SessionProgress,
  settleCommand,
  WAITING_ON_HUMAN_EXIT_CODE,
  type HumanWait,
} from "../session-progress.js";
import { withClient } from "../with-client.js";

/** Events chat does not show: the conversation itself says as much. */
const quietEvents = new Set(["message.accepted", "session.created", "session.idle", "run.started"]);

interface ChatOptions extends ConnectionFlags {
  readonly agent?: string;
  readonly color: boolean;
  readonly attach?: string[];
}

type Colors = ReturnType<typeof pc.createColors>;

/**
 * Asks a question inline and returns the line that answers it, or `undefined`
 * when the input ended first.
 */
type Ask = (question: string, signal: AbortSignal) => Promise<string | undefined>;

/**
 * `troupe chat [sessionId]`: an interactive conversation. Streams each answer,
 * shows tool calls, and asks approvals and the agent's questions inline.
 * `--attach <file>` (repeatable, as `troupe send`'s) uploads the files before
 * the first prompt and sends their references with the first message.
 * Ctrl-C during an answer cancels the run; `/exit`, Ctrl-D or Ctrl-C at the
 * prompt leaves (the session stays; `troupe chat <id>` continues it).
 *
 * No input is lost (docs/decisions/0018). In a terminal, what is typed while an answer
 * streams is not echoed into it: each line is queued and sent, in order, when
 * the prompt returns (`you › <line> (typed ahead)`); an approval or a question
 * takes the next line typed after it appears. From a pipe or a file, each line
 * is a message sent after the previous answer, and an approval or a question
 * takes the next line. When the input ends (EOF, Ctrl-D) the answers still
 * come; the chat leaves after the last, or, when an approval or a question is
 * left without an answer, prints the command that settles it and exits
 * {@link WAITING_ON_HUMAN_EXIT_CODE}. Exit 1 when the input is not a terminal
 * and a run failed, was cancelled or its message was refused.
 *
 * A session an earlier chat left waiting on a human is picked up:
 * before the first prompt chat reads the stored events once (the rules of
 * `tail --until-idle`), asks each open approval and question (also a
 * subagent's) as during a run — from a pipe the first lines answer them — and
 * follows a run in progress to its end. It gives up, printing what happened
 * and how to continue, with {@link CLUSTER_GONE_EXIT_CODE} when during an
 * answer the NATS connection stays lost for {@link LOST_CONNECTION_GRACE_MS},
 * a NATS request times out, no host answers a sent line within
 * {@link NO_HOST_ANSWER_MS}, or no host ever created the streams.
 */
export function chatCommand(): Command {
  return connectionOptions(new Command("chat"))
    .description("talk to an agent interactively (answers stream, approvals asked inline)")
    .argument("[sessionId]", "session to talk in (default: a new one)")
    .option("--agent <name>", "agent for a new session (default: the host's default agent)")
    .option("--no-color", "plain text")
    .addOption(attachOption("the first message"))
    .addHelpText(
      "after",
      "\nLines typed while an answer streams are queued and sent when the prompt returns;\n" +
        "an approval or a question takes the next line typed after it appears.\n" +
        "Piped input (printf 'hi\\nthanks\\n' | troupe chat s1) sends one message a line,\n" +
        "each after the previous answer; an approval or question takes the next line.\n" +
        "A session left waiting on an approval or a question is asked that first.\n" +
        `Exit codes: 0; ${WAITING_ON_HUMAN_EXIT_CODE} when the input ended while an approval or a question ` +
        "waits;\n" +
        `${CLUSTER_GONE_EXIT_CODE} when the cluster is gone (NATS lost for ${LOST_CONNECTION_GRACE_MS / 1000} s, ` +
        `no host answered a line in ${NO_HOST_ANSWER_MS / 1000} s);\n` +
        "1 on an error, or (input not a terminal) when a run failed, was cancelled or refused.",
    )
    .action(async (sessionIdArgument: string | undefined, options: ChatOptions) => {
      const sessionId = sessionIdArgument ?? `chat-${randomUUID().slice(0, 8)}`;
      assertActorId(sessionId);
      // A value whose media type cannot be told is refused before connecting.
      const attach = options.attach ?? [];
      attach.forEach(parseAttachSpec);
      const exitCode = await withClient(options, async (client) => {
        // Uploaded before the first prompt: a missing or refused file ends the chat at once.
        const attachments = await uploadAttachments(client, attach);
        return chat(client, sessionId, options, attachments);
      });
      if (exitCode !== 0) process.exitCode = exitCode;
    });
}

async function chat(
  client: TroupeClient,
  sessionId: string,
  options: ChatOptions,
  attachments: readonly MediaRef[],
): Promise<number> {
  const color = options.color && pc.isColorSupported;
  const colors = pc.createColors(color);
  const renderer = new EventRenderer({ color, sessionId });
  const write = (text: string) => process.stdout.write(text);
  // In a terminal readline reads every key (so Ctrl-C and type-ahead work while
  // an answer streams) and writes through `screen`, muted during the answer.
  const interactive = process.stdin.isTTY === true;
  const screen = interactive ? new MutedOutput(process.stdout) : undefined;
  const lines = createInterface({ input: process.stdin, output: screen, terminal: interactive });
  const input = new InputQueue();
  lines.on("line", (line) => input.push(line));
  lines.once("close", () => input.end());
  write(
    `${colors.bold(`troupe chat: session ${sessionId}`)}` +
      colors.dim(
        interactive
          ? "  (/exit or Ctrl-D leaves; Ctrl-C cancels an answer; lines typed during an answer are sent after it)\n"
          : "  (one message a line from stdin, each after the previous answer)\n",
      ),
  );
  // The `--attach` files go with the first message sent.
  let pendingAttachments = attachments;
  if (attachments.length > 0) {
    write(
      colors.dim(
        `· attached to your first message: ${attachments.map((ref) => ref.name ?? ref.digest).join(", ")}\n`,
      ),
    );
  }
  let leaving = false;
  let exitCode = 0;
  // The current turn: its wait, and the approvals and questions asked in it.
  let turn: Turn | undefined;
  let interrupts = 0;
  let waitingOnHuman = false;
  // Set when chat gives up on a cluster that is gone.
  let loss: ClusterLoss | undefined;
  const giveUp = (why: ClusterLoss) => {
    if (loss !== undefined) return;
    loss = why;
    if (turn !== undefined) {
      turn.prompts.abort();
      turn.wait.abort(new Error("the cluster is gone"));
    }
  };
  // A lost connection during an answer: the client reconnects by itself, but
  // nobody would learn that the cluster stopped. Give up after a grace period.
  let disconnectedSince: number | undefined;
  let lostTimer: NodeJS.Timeout | undefined;
  const connectionLost = (server: string) => {
    if (disconnectedSince === undefined || turn === undefined) return;
    giveUp({ kind: "connection_lost", server, forMs: Date.now() - disconnectedSince });
  };
  const stopWatching = client.onConnectionChange((change) => {
    clearTimeout(lostTimer);
    if (change.kind === "reconnected") {
      disconnectedSince = undefined;
      return;
    }
    disconnectedSince ??= Date.now();
    lostTimer = setTimeout(() => connectionLost(change.server), LOST_CONNECTION_GRACE_MS);
    lostTimer.unref();
  });
  const interrupt = () => {
    if (turn === undefined) {
      leaving = true;
      input.discard();
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
  };
  // Ctrl-C: a key readline reads in a terminal; a signal when stdin is a pipe
  // (or after the terminal input was closed with Ctrl-D).
  lines.on("SIGINT", interrupt);
  process.on("SIGINT", interrupt);
  const ask: Ask = async (question, signal) => {
    if (screen !== undefined) {
      screen.muted = false;
      lines.setPrompt(question);
      lines.prompt(true);
      try {
        return await input.nextTyped(signal);
      } finally {
        screen.muted = true;
      }
    }
    write(question);
    const answer = await input.next(signal);
    write(answer === undefined ? "\n" : `${answer}\n`);
    return answer;
  };
  // Approvals and questions found while an answer streams, asked one at a time;
  // a failed one is reported and does not block the next.
  let prompts: Promise<void> = Promise.resolve();
  const askInline = (event: SessionEvent, current: Turn) => {
    const signal = current.prompts.signal;
    prompts = prompts
      .then(async () => {
        if (signal.aborted) return;
        const wait = await askAbout(event, client, sessionId, ask, colors, signal);
        if (wait === undefined || signal.aborted) return;
        // The input ended: nobody is left to answer here.
        write(
          colors.yellow(
            `· the input ended while ${wait.kind === "approval" ? `${wait.tool} waits for approval` : "a question waits for its answer"}: ` +
              `${settleCommand(sessionId, wait)}\n`,
          ),
        );
        waitingOnHuman = true;
        current.prompts.abort();
        current.wait.abort(new Error("the session waits on a human"));
      })
      .catch((error: unknown) => {
        if (signal.aborted) return;
        write(
          `${colors.red("error:")} ${error instanceof Error ? messageWithCauses(error) : String(error)}\n`,
        );
      });
  };
  /** Shows one event of the turn's run, and asks an approval or a question inline. */
  const showing = (current: Turn) => {
    // "agent ›" goes before the answer text; tool calls and approvals print between.
    let inAnswer = false;
    return (event: SessionEvent) => {
      current.heard = true;
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
        askInline(event, current);
      }
    };
  };
  /**
   * Runs one turn: `wait` follows a run (showing its events through `show`)
   * and returns how it ended (`undefined`: nothing ran).
   */
  const runTurn = async (
    operation: string,
    wait: (signal: AbortSignal, show: (event: SessionEvent) => void) => Promise<RunEnd | undefined>,
  ) => {
    const current: Turn = {
      wait: new AbortController(),
      prompts: new AbortController(),
      heard: false,
    };
    turn = current;
    interrupts = 0;
    if (screen !== undefined) screen.muted = true;
    // The connection was lost at the prompt already: give up once it is lost long enough.
    if (disconnectedSince !== undefined) {
      const left = LOST_CONNECTION_GRACE_MS - (Date.now() - disconnectedSince);
      const server = client.server;
      if (left <= 0) connectionLost(server);
      else {
        clearTimeout(lostTimer);
        lostTimer = setTimeout(() => connectionLost(server), left);
        lostTimer.unref();
      }
    }
    try {
      const outcome = await wait(current.wait.signal, showing(current));
      if (outcome === undefined) return;
      if (outcome.status === "completed") write("\n");
      else if (!interactive) exitCode = 1;
    } catch (error) {
      if (loss === undefined && StreamsMissingError.isInstance(error)) {
        giveUp({ kind: "no_streams", server: client.server });
      } else if (loss === undefined && isNatsTimeout(error)) {
        giveUp({ kind: "timeout", server: client.server, operation });
      }
      if (!waitingOnHuman && loss === undefined) {
        write(
          `\n${colors.red("error:")} ${error instanceof Error ? messageWithCauses(error) : String(error)}\n`,
        );
        if (!interactive) exitCode = 1;
      }
    } finally {
      // The run ended (or the wait did): a question still on screen is moot.
      current.prompts.abort();
      await prompts;
      turn = undefined;
    }
  };
  try {
    // A session left waiting on a human (or with a run going on) by an earlier
    // chat: ask its waits and follow its run before the first prompt.
    await runTurn("reading the session's events", (signal, show) =>
      resumeSession(client, sessionId, signal, show, () =>
        write(colors.dim("· a run of this session is in progress; its answer follows\n")),
      ),
    );
    while (!leaving && !waitingOnHuman && loss === undefined) {
      let text: string | undefined;
      if (screen !== undefined && input.size === 0 && !input.ended) {
        screen.muted = false;
        lines.setPrompt(colors.cyan("you › "));
        lines.prompt(true); // with what was typed ahead of the prompt on its line
        text = await input.next();
      } else {
        // A line typed ahead, or the next line of piped input (once it comes).
        text = await input.next();
        if (text !== undefined && text.trim() !== "" && !leaving) {
          const more = input.size;
          const note = interactive
            ? colors.dim(` (typed ahead${more > 0 ? `; ${more} more queued` : ""})`)
            : "";
          write(`${colors.cyan("you › ")}${text}${note}\n`);
        }
      }
      if (text === undefined || leaving) break;
      text = text.trim();
      if (text === "") continue;
      if (text === "/exit" || text === "/quit") break;
      const line = text;
      await runTurn("sending the line", async (signal, show) => {
        checkMessageTextLength(line, "this line");
        const lineAttachments = pendingAttachments;
        pendingAttachments = [];
        // NATS took the line but no host may be there to answer it.
        const noHost = setTimeout(() => {
          if (turn !== undefined && !turn.heard) {
            giveUp({ kind: "no_host", forMs: NO_HOST_ANSWER_MS });
          }
        }, NO_HOST_ANSWER_MS);
        try {
          return await client.sendAndWait(
            sessionId,
            {
              text: line,
              ...(options.agent === undefined ? {} : { agent: options.agent }),
              ...(lineAttachments.length === 0 ? {} : { attachments: [...lineAttachments] }),
            },
            { signal, onEvent: show },
          );
        } finally {
          clearTimeout(noHost);
        }
      });
    }
  } finally {
    stopWatching();
    clearTimeout(lostTimer);
    process.off("SIGINT", interrupt);
    if (screen !== undefined) screen.muted = false;
    lines.close();
  }
  if (waitingOnHuman) exitCode = WAITING_ON_HUMAN_EXIT_CODE;
  if (loss !== undefined) {
    write(`\n${colors.yellow(clusterLossMessage(loss, sessionId))}\n`);
    return CLUSTER_GONE_EXIT_CODE;
  }
  write(colors.dim(`\nbye. Continue with: npx troupe chat ${sessionId}\n`));
  return exitCode;
}

/** One turn of the chat: the wait for its run, and the approvals and questions asked in it. */
interface Turn {
  readonly wait: AbortController;
  readonly prompts: AbortController;
  /** Whether an event of the session came in this turn (a host is there). */
  heard: boolean;
}

/**
 * Picks up a session where it is when the chat starts (docs/decisions/0018): reads its
 * stored events once, from sequence 1 to the end, with the rules of `troupe
 * tail --until-idle` (`SessionProgress`). An approval or a question still
 * open there is shown and asked (through `show`, as if it came up now); a run
 * in progress is followed to its end, showing its events stored from then on.
 *
 * @returns `undefined` when the session is idle or new; the outcome of the run
 *   that was in progress or waiting.
 * @throws `signal.reason` when aborted; as `TroupeClient.events`.
 */
async function resumeSession(
  client: TroupeClient,
  sessionId: string,
  signal: AbortSignal,
  show: (event: SessionEvent) => void,
  onRunInProgress: () => void,
): Promise<RunEnd | undefined> {
  if ((await client.storedEventCount(sessionId)) === 0) return undefined;
  const end = await client.lastSequence();
  const progress = new SessionProgress(sessionId);
  // Requests read from the history by wait key, and the waits already asked.
  const requests = new Map<string, SessionEvent>();
  const asked = new Set<string>();
  let caughtUp = false;
  let outcome: RunEnd | undefined;
  for await (const event of client.events(sessionId, { fromSequence: 1, signal })) {
    // A delta's sequence is that of the durable event before it.
    const live = (event.deltaSequence === undefined ? event.sequence : event.sequence + 1) > end;
    const wait = humanWaitOf(event.event, sessionId);
    if (wait !== undefined) {
      requests.set(humanWaitKey(wait), event);
      if (live) asked.add(humanWaitKey(wait)); // `show` asks it
    }
    if (live) {
      show(event);
      outcome = runOutcomeOf(event, sessionId) ?? outcome;
    }
    const stop = progress.observe(event);
    if (stop?.stop === "idle") return caughtUp ? outcome : undefined;
    if (stop?.stop === "waiting_on_human") {
      caughtUp = true;
      for (const open of stop.waits) {
        const key = humanWaitKey(open);
        const request = requests.get(key);
        if (asked.has(key) || request === undefined) continue;
        asked.add(key);
        show(request);
      }
    } else if (!caughtUp && event.pending === 0 && event.deltaSequence === undefined) {
      caughtUp = true;
      onRunInProgress();
    }
  }
  signal.throwIfAborted();
  throw new Error("the connection to NATS was closed while reading the session's events");
}

/** How a run of the chat ended: the `status` of its `RunOutcome`. */
interface RunEnd {
  readonly status: RunOutcome["status"];
}

/** How the session's own run ended, from its `run.completed` / `run.failed` / `run.cancelled`. */
function runOutcomeOf(event: SessionEvent, sessionId: string): RunEnd | undefined {
  const { type, meta } = event.event;
  if (meta.actor !== `run/${sessionId}`) return undefined;
  if (type === "run.completed") return { status: "completed" };
  if (type === "run.failed") return { status: "failed" };
  if (type === "run.cancelled") return { status: "cancelled" };
  return undefined;
}

/**
 * Asks about an approval request or a question and sends the answer.
 *
 * @returns `undefined` once answered (or aborted); the open wait when the input
 *   ended before an answer came.
 */
async function askAbout(
  event: SessionEvent,
  client: TroupeClient,
  sessionId: string,
  ask: Ask,
  colors: Colors,
  signal: AbortSignal,
): Promise<HumanWait | undefined> {
  const wait = humanWaitOf(event.event, sessionId);
  if (wait === undefined) return undefined;
  // A subagent's call waits in its own session (`sub-…`); the parent forwards.
  const via =
    wait.subagentSessionId === undefined ? {} : { subagentSessionId: wait.subagentSessionId };
  if (wait.kind === "approval") {
    const answer = await ask(colors.yellow(`approve ${wait.tool}? [y/N] `), signal);
    if (answer === undefined) return wait;
    if (/^y(es)?$/i.test(answer.trim())) {
      await client.approve(sessionId, wait.toolCallId, via);
    } else {
      await client.deny(sessionId, wait.toolCallId, { reason: "denied in troupe chat", ...via });
    }
    return undefined;
  }
  const answer = await ask(colors.yellow("your answer › "), signal);
  if (answer === undefined) return wait;
  await client.answer(sessionId, wait.questionId, answer, via);
  return undefined;
}
