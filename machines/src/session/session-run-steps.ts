import {
  formatAddress,
  toolActorId,
  type RunCancel,
  type RunStart,
  type SubagentFinished,
} from "@troupe/protocol";
import { appendEntry, emitEvent, sendMessage } from "@troupe/protocol";
import { commandIdOf } from "../host-actions/command-verdict.js";
import { insertIntoQueue, type QueuedMessage, type SessionContext } from "./session-context.js";
import { SESSION_REJECTION_CODES, type SessionEvent } from "./session-events.js";
import { messageIdOf, runIdAt, textOf, type SessionStep } from "./session-step.js";

// Steps of the session machine about runs: pure functions of context and event;
// session-machine.ts decides when each runs.

/** Address of the run actor of a session: `run/<sessionId>`. */
export function runAddressOf(sessionId: string): string {
  return formatAddress({ kind: "run", id: sessionId });
}

/** Starts a run for the head of the queue: transcript entry, `run.start`, `run.started`. */
export const startNextRun: SessionStep = (context) => {
  const [head, ...rest] = context.queue;
  if (head === undefined) return {};
  const runCount = context.runCount + 1;
  const runId = runIdAt(runCount);
  const { sessionId, agent, model } = context;
  const start: RunStart = {
    runId,
    sessionId,
    ...(agent === undefined ? {} : { agent }),
    ...(model === undefined ? {} : { model }),
    maxModelCalls: context.maxModelCalls,
    transcriptLength: context.transcriptLength + 1,
    ...(context.toolPolicy === undefined ? {} : { toolPolicy: context.toolPolicy }),
    ...(context.parent === undefined ? {} : { parentSessionId: context.parent.sessionId }),
    ...(context.parent?.runId === undefined ? {} : { parentRunId: context.parent.runId }),
    ...((context.transcriptBase?.length ?? 0) === 0
      ? {}
      : { transcriptBase: context.transcriptBase }),
    ...(head.priorityClass === undefined ? {} : { priority: head.priorityClass }),
  };
  return {
    context: {
      queue: rest,
      runCount,
      activeRunId: runId,
      transcriptLength: start.transcriptLength,
      steered: [],
      cancelRequested: false,
    },
    actions: [
      appendEntry({
        log: "transcript",
        key: sessionId,
        index: context.transcriptLength,
        entry: {
          role: "user",
          text: head.text,
          messageId: head.messageId,
          ...(head.attachments === undefined ? {} : { attachments: [...head.attachments] }),
        },
      }),
      // The run's class, never the one of the message that freed the session
      // (a queued batch run started by an interactive run's end stays batch).
      sendMessage({
        to: runAddressOf(sessionId),
        type: "run.start",
        payload: start,
        priority: head.priorityClass ?? "default",
      }),
      emitEvent("run.started", {
        runId,
        messageId: head.messageId,
        ...(agent === undefined ? {} : { agent }),
        ...(head.priorityClass === undefined ? {} : { priority: head.priorityClass }),
      }),
    ],
  };
};

/** Sends `run.cancel` to the run actor, once per run. */
export const forwardCancel: SessionStep = (context, event) => {
  if (context.activeRunId === undefined || context.cancelRequested) return {};
  const reason =
    event.type === "run.cancel"
      ? event.reason
      : event.type === "user.message"
        ? "interrupted by a new message"
        : "the session is closing";
  const payload: RunCancel = {
    runId: context.activeRunId,
    ...(reason === undefined ? {} : { reason }),
  };
  return {
    context: { cancelRequested: true },
    actions: [sendMessage({ to: runAddressOf(context.sessionId), type: "run.cancel", payload })],
  };
};

/**
 * The run a `tool.approve` / `tool.deny` / `question.answer` is for: the active
 * run, or the last run when none is active (so a late settlement still reaches
 * its call and is told it was already settled); undefined before the first run.
 */
export const toolMessageRunId = (context: {
  readonly activeRunId: string | undefined;
  readonly runCount: number;
}): string | undefined =>
  context.activeRunId ?? (context.runCount === 0 ? undefined : runIdAt(context.runCount));

/** Prefix of a subagent's session id (`sub-<toolActorId>`, see `subagentSessionId`). */
export const SUBAGENT_SESSION_PREFIX = "sub-";

/** The `sessionId` a `tool.approve` / `tool.deny` / `question.answer` names, if any. */
const targetSessionOf = (event: SessionEvent): string | undefined =>
  event.type === "tool.approve" || event.type === "tool.deny" || event.type === "question.answer"
    ? event.sessionId
    : undefined;

/**
 * Whether a tool message names another session than this one (its `sessionId`
 * is set and differs): it is either for one of this session's subagents
 * ({@link namesSubagentSession}) or refused.
 */
export const namesOtherSession = (context: SessionContext, event: SessionEvent): boolean => {
  const target = targetSessionOf(event);
  return target !== undefined && target !== context.sessionId;
};

/**
 * Whether a tool message names a subagent's session of this one: another
 * session whose id starts with `sub-`, while this session is not itself a
 * subagent's (delegation is one level deep). The parent does not track its
 * subagents' ids (its tool call actors create them); a `sub-…` id that is no
 * subagent of it reaches a session with no run, which refuses it.
 */
export const namesSubagentSession = (context: SessionContext, event: SessionEvent): boolean => {
  const target = targetSessionOf(event);
  return (
    namesOtherSession(context, event) &&
    context.parent === undefined &&
    target !== undefined &&
    target.startsWith(SUBAGENT_SESSION_PREFIX)
  );
};

/**
 * Forwards a `tool.approve` / `tool.deny` / `question.answer` naming a
 * subagent's session (payload unchanged, `sessionId` included, `commandId` set) to
 * `session/<sessionId>`, which settles it with its own run's tool call (its
 * `message.accepted` / `message.rejected` appear on this session's subjects).
 */
export const forwardToSubagentSession: SessionStep = (context, event) => {
  const target = targetSessionOf(event);
  if (target === undefined || !namesSubagentSession(context, event)) return {};
  const to = formatAddress({ kind: "session", id: target });
  const sessionId = { sessionId: target, commandId: commandIdOf(event) };
  if (event.type === "tool.approve") {
    const { toolCallId, note } = event;
    const payload = { toolCallId, ...(note === undefined ? {} : { note }), ...sessionId };
    return { actions: [sendMessage({ to, type: event.type, payload })] };
  }
  if (event.type === "tool.deny") {
    const { toolCallId, reason } = event;
    const payload = { toolCallId, ...(reason === undefined ? {} : { reason }), ...sessionId };
    return { actions: [sendMessage({ to, type: event.type, payload })] };
  }
  if (event.type === "question.answer") {
    const { questionId, text } = event;
    const payload = { questionId, text, ...sessionId };
    return { actions: [sendMessage({ to, type: event.type, payload })] };
  }
  return {};
};

/**
 * Forwards `tool.approve` / `tool.deny` / `question.answer` (payload unchanged)
 * to the tool call actor `tool/<toolActorId(sessionId, runId, toolCallId)>` of
 * {@link toolMessageRunId} (`questionId` is the call id) with `commandId` (the
 * command's id), and accepts the message (`message.accepted` with that
 * `runId`). The tool call actor answers it with `command.settled`.
 */
export const forwardToToolCall: SessionStep = (context, event) => {
  const runId = toolMessageRunId(context);
  if (runId === undefined) return {};
  const commandId = commandIdOf(event);
  let send;
  if (event.type === "tool.approve") {
    const { toolCallId, note } = event;
    const payload = { toolCallId, ...(note === undefined ? {} : { note }), commandId };
    send = { toolCallId, type: "tool.approve" as const, payload };
  } else if (event.type === "tool.deny") {
    const { toolCallId, reason } = event;
    const payload = { toolCallId, ...(reason === undefined ? {} : { reason }), commandId };
    send = { toolCallId, type: "tool.deny" as const, payload };
  } else if (event.type === "question.answer") {
    const { questionId, text } = event;
    send = {
      toolCallId: questionId,
      type: "question.answer" as const,
      payload: { questionId, text, commandId },
    };
  } else {
    return {};
  }
  const to = formatAddress({
    kind: "tool",
    id: toolActorId(context.sessionId, runId, send.toolCallId),
  });
  return {
    actions: [
      emitEvent("message.accepted", { messageId: messageIdOf(event), type: event.type, runId }),
      sendMessage({ to, type: send.type, payload: send.payload }),
    ],
  };
};

/** Sends the text to the active run with `run.steer` and remembers it until the run ends. */
export const forwardSteer: SessionStep = (context, event) => {
  if (context.activeRunId === undefined) return {};
  const entry: QueuedMessage = {
    seq: context.admittedCount,
    messageId: messageIdOf(event),
    text: textOf(event),
    priority: true,
    answered: true,
  };
  const payload = { runId: context.activeRunId, text: entry.text };
  return {
    context: { steered: [...context.steered, entry] },
    actions: [sendMessage({ to: runAddressOf(context.sessionId), type: "run.steer", payload })],
  };
};

/**
 * Ends the active run on `run.finished`: takes the transcript length, and puts
 * the steers the run did not take at the front of the queue. A subagent's
 * session tells the delegating tool call actor with `subagent.finished`
 * (outcome and text; it takes the first and ignores later ones).
 */
export const finishRun: SessionStep = (context, event) => {
  if (event.type !== "run.finished") return {};
  const undelivered = context.steered.slice(event.steersApplied);
  const { parent } = context;
  const payload: SubagentFinished = {
    sessionId: context.sessionId,
    runId: event.runId,
    outcome: event.outcome,
    text: event.text ?? "",
  };
  return {
    actions:
      parent === undefined
        ? []
        : [sendMessage({ to: parent.toolActor, type: "subagent.finished", payload })],
    context: {
      transcriptLength: event.transcriptLength,
      queue: insertIntoQueue(context.queue, undelivered),
      activeRunId: undefined,
      steered: [],
      cancelRequested: false,
    },
  };
};

const lastRun = (runCount: number) => (runCount === 0 ? {} : { lastRunId: runIdAt(runCount) });

/** `session.idle`: no run, nothing queued. */
export const announceIdle: SessionStep = (context) => ({
  actions: [
    emitEvent("session.idle", { sessionId: context.sessionId, ...lastRun(context.runCount) }),
  ],
});

/** `session.closed`. */
export const announceClosed: SessionStep = (context) => ({
  actions: [
    emitEvent("session.closed", { sessionId: context.sessionId, ...lastRun(context.runCount) }),
  ],
});

/**
 * Refuses every queued message (the session closed before they ran) and empties
 * the queue. A steer carried over from the run it was given to had its verdict
 * already (`applied`) and is dropped without a second one.
 */
export const dropQueue: SessionStep = (context) => ({
  context: { queue: [] },
  actions: context.queue
    .filter((entry) => entry.answered !== true)
    .map((entry) =>
      emitEvent("message.rejected", {
        reason: `session ${context.sessionId} closed before the message ran`,
        code: SESSION_REJECTION_CODES.sessionClosed,
        messageId: entry.messageId,
      }),
    ),
});
