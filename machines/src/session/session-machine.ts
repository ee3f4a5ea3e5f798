import type { SessionPolicy, ActorInput } from "@troupe/protocol";
import { and, not, setup } from "xstate";
import { hostActionImplementations } from "@troupe/protocol";
import { stepAction } from "../host-actions/machine-step.js";
import {
  accept,
  admit,
  configure,
  enqueueMessage,
  loosensToolPolicy,
  rejectWith,
  reportDuplicate,
} from "./session-admission-steps.js";
import {
  adoptAgent,
  holdMessage,
  isAgentResolution,
  needsAgentResolution,
  rejectUnresolvedAgent,
  requestAgent,
  resolvesAgent,
} from "./session-agent-steps.js";
import { initialSessionContext, type SessionContext } from "./session-context.js";
import {
  adoptFork,
  forkRefusal,
  forksItself,
  holdForForkPoint,
  isForkResolution,
  mayBecomeFork,
  rejectFork,
  repeatsFork,
  requestFork,
  settleRepeatedFork,
} from "./session-fork-steps.js";
import { SESSION_REJECTION_CODES as CODES, type SessionEvent } from "./session-events.js";
import {
  announceClosed,
  announceIdle,
  dropQueue,
  finishRun,
  forwardCancel,
  forwardSteer,
  forwardToSubagentSession,
  forwardToToolCall,
  namesOtherSession,
  namesSubagentSession,
  startNextRun,
  toolMessageRunId,
} from "./session-run-steps.js";
import {
  settleAlreadyClosed,
  settleApplied,
  settleConfigured,
  settleCancel,
  settleCancelWhileClosing,
  settleNoRunToCancel,
} from "./session-verdict-steps.js";
import { forwardCompact } from "./session-compact-steps.js";

const step = stepAction<SessionContext, SessionEvent>;
/**
 * `tool.approve` / `tool.deny` / `question.answer`: naming a subagent's session
 * (`sessionId: "sub-…"`), forwarded to it; naming another session, refused;
 * otherwise forwarded to the tool call actor of the active (or last) run.
 */
const forwardTool = [
  { guard: "namesSubagentSession", actions: "forwardToSubagentSession" },
  { guard: "namesOtherSession", actions: "rejectUnknownSession" },
  { guard: "hasRunForToolMessage", actions: "forwardToToolCall" },
  { actions: "rejectNoRun" },
] as const;
/** A user message whose agent is not resolved yet waits for `agent.resolve`. */
const resolveAgent = { guard: "needsAgent", target: "resolving", actions: "requestAgent" } as const;
const configureSafely = [
  { guard: "loosensToolPolicy", actions: "rejectLoosening" },
  { actions: ["configure", "accept", "settleConfigured"] },
] as const;
/**
 * `session.fork` (docs/decisions/0043): only a session without a history of its own becomes a fork.
 */
const forkSession = [
  { guard: "repeatsFork", actions: "settleRepeatedFork" },
  { guard: "forksItself", actions: "rejectForkOfItself" },
  { guard: "mayBecomeFork", target: "forking", actions: "requestFork" },
  { actions: "rejectExistingSession" },
] as const;
const runIdOf = (event: SessionEvent) =>
  event.type === "run.cancel" || event.type === "run.steer" || event.type === "run.finished"
    ? event.runId
    : undefined;

/**
 * The session actor (`session/<sessionId>`): admits user messages idempotently
 * (by `clientMessageId`), keeps one run at a time on the session's run actor
 * (`run/<sessionId>`), applies the session's policy to messages that arrive during
 * a run, appends user turns to the transcript, and ends on `session.close`.
 *
 * Every agent-dependent decision comes from the journal: the first time the
 * session meets an agent name (or, for its first message, the default agent)
 * it requests the `agent.resolve` effect and waits in `resolving`, holding
 * that message and every later one; the journaled result admits the message
 * with the agent's settings, or refuses it (`unknown_agent`).
 *
 * States: `idle` (no run), `running` (run `activeRunId` in progress),
 * `resolving` (waits for an agent's settings; returns to `idle` or `running`),
 * `forking` (a `session.fork` waits for its fork point; returns to `idle`),
 * `closing` (closed while running: waits for the cancelled run to finish),
 * `closed`.
 * See ../../README.md for every message, event and action.
 *
 * Input: `{ address: { kind: "session", id: sessionId } }`.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as ActorInput,
  },
  actions: {
    ...hostActionImplementations,
    admit: step(admit),
    accept: step(accept),
    reportDuplicate: step(reportDuplicate),
    enqueueMessage: step(enqueueMessage),
    configure: step(configure),
    startNextRun: step(startNextRun),
    forwardCancel: step(forwardCancel),
    forwardSteer: step(forwardSteer),
    forwardCompact: step(forwardCompact),
    finishRun: step(finishRun),
    announceIdle: step(announceIdle),
    announceClosed: step(announceClosed),
    dropQueue: step(dropQueue),
    settleCancel: step(settleCancel),
    settleNoRunToCancel: step(settleNoRunToCancel),
    settleApplied: step(settleApplied),
    settleConfigured: step(settleConfigured),
    settleAlreadyClosed: step(settleAlreadyClosed),
    settleCancelWhileClosing: step(settleCancelWhileClosing),
    requestAgent: step(requestAgent),
    holdMessage: step(holdMessage),
    adoptAgent: step(adoptAgent),
    rejectUnresolvedAgent: step(rejectUnresolvedAgent),
    requestFork: step(requestFork),
    holdForForkPoint: step(holdForForkPoint),
    adoptFork: step(adoptFork),
    rejectFork: step(rejectFork),
    settleRepeatedFork: step(settleRepeatedFork),
    rejectForkOfItself: step(rejectWith(forkRefusal.code.invalidFork, forkRefusal.itself)),
    rejectExistingSession: step(rejectWith(forkRefusal.code.sessionExists, forkRefusal.exists)),
    forwardToToolCall: step(forwardToToolCall),
    forwardToSubagentSession: step(forwardToSubagentSession),
    rejectUnknownSession: step(
      rejectWith(
        CODES.unknownSession,
        (c) => `sessionId names no subagent session of session ${c.sessionId}`,
      ),
    ),
    rejectNoRun: step(
      rejectWith(CODES.noRun, (c) => `session ${c.sessionId} has no run with tool calls yet`),
    ),
    rejectLoosening: step(
      rejectWith(
        CODES.toolPolicyLoosening,
        () =>
          "session.configure may only make the tool policy safer (ask, deny); toolPolicy.allow is refused",
      ),
    ),
    rejectClosed: step(rejectWith(CODES.sessionClosed, (c) => `session ${c.sessionId} is closed`)),
    rejectClosing: step(
      rejectWith(CODES.sessionClosed, (c) => `session ${c.sessionId} is closing`),
    ),
    rejectRunActive: step(
      rejectWith(
        CODES.runActive,
        (c) => `run ${c.activeRunId} is active and the session's policy is "reject"`,
      ),
    ),
    rejectNoActiveRun: step(rejectWith(CODES.noActiveRun, () => "no run is active to steer")),
    rejectRunNotActive: step(
      rejectWith(
        CODES.runNotActive,
        (c, e) => `run ${runIdOf(e)} is not the active run (${c.activeRunId})`,
      ),
    ),
  },
  guards: {
    isDuplicate: ({ context, event }) =>
      event.type === "user.message" &&
      event.clientMessageId !== undefined &&
      context.admittedClientMessageIds.includes(event.clientMessageId),
    policyIs: ({ context }, params: { policy: SessionPolicy }) => context.policy === params.policy,
    /** `steer` policy and a message a steer can carry: one without attachments (those queue). */
    steersMessage: ({ context, event }) =>
      context.policy === "steer" && !(event.type === "user.message" && event.attachments),
    /** The event names the active run, or no run at all. */
    targetsActiveRun: ({ context, event }) => {
      const runId = runIdOf(event);
      return runId === undefined || runId === context.activeRunId;
    },
    isActiveRunFinished: ({ context, event }) =>
      event.type === "run.finished" && event.runId === context.activeRunId,
    /** On `run.finished`: a message waits (queued, or a steer the run did not take). */
    hasNextMessage: ({ context, event }) =>
      context.queue.length > 0 ||
      (event.type === "run.finished" && context.steered.length > event.steersApplied),
    /** A `user.message` whose agent the session has not resolved yet. */
    needsAgent: ({ context, event }) => needsAgentResolution(context, event),
    /** The result of the `agent.resolve` request the session waits for. */
    isAgentResolution: ({ context, event }) => isAgentResolution(context, event),
    /** A well-formed successful `agent.resolve` result. */
    resolvesAgent: ({ event }) => resolvesAgent(event),
    /** A run is active: `resolving` returns to `running` (else to `idle`). */
    hasActiveRun: ({ context }) => context.activeRunId !== undefined,
    /** A `session.configure` that would loosen the tool policy. */
    loosensToolPolicy: ({ event }) => loosensToolPolicy(event),
    /** The session has a run a tool message may be for (the active one, or the last). */
    hasRunForToolMessage: ({ context }) => toolMessageRunId(context) !== undefined,
    /** A tool message whose `sessionId` names one of this session's subagents' sessions. */
    namesSubagentSession: ({ context, event }) => namesSubagentSession(context, event),
    /** A tool message whose `sessionId` names another session. */
    namesOtherSession: ({ context, event }) => namesOtherSession(context, event),
    /** A `session.fork` repeating the fork this session is. */
    repeatsFork: ({ context, event }) => repeatsFork(context, event),
    /** A `session.fork` naming this session as its source. */
    forksItself: ({ context, event }) => forksItself(context, event),
    /** The session has no history of its own yet. */
    mayBecomeFork: ({ context }) => mayBecomeFork(context),
    /** The result of the `fork.resolve` request the session waits for. */
    isForkResolution: ({ context, event }) => isForkResolution(context, event),
  },
}).createMachine({
  id: "session",
  context: ({ input }) => initialSessionContext(input),
  initial: "idle",
  states: {
    idle: {
      on: {
        "user.message": [
          { guard: "isDuplicate", actions: "reportDuplicate" },
          resolveAgent,
          {
            target: "running",
            actions: ["admit", "accept", "enqueueMessage", "startNextRun"],
          },
        ],
        "run.cancel": { actions: "settleNoRunToCancel" },
        "run.steer": { actions: "rejectNoActiveRun" },
        "session.configure": configureSafely,
        "session.close": { target: "closed", actions: ["settleApplied", "announceClosed"] },
        "session.compact": { actions: ["settleApplied", "forwardCompact"] },
        "tool.approve": forwardTool,
        "tool.deny": forwardTool,
        "question.answer": forwardTool,
        "session.fork": forkSession,
      },
    },
    // Waits for the fork point (`fork.resolve`); every other message waits behind it.
    forking: {
      on: {
        "effect.completed": [
          { guard: not("isForkResolution"), actions: "holdForForkPoint" },
          { target: "idle", actions: "adoptFork" },
        ],
        "effect.failed": [
          { guard: not("isForkResolution"), actions: "holdForForkPoint" },
          { target: "idle", actions: "rejectFork" },
        ],
        "*": { actions: "holdForForkPoint" },
      },
    },
    running: {
      on: {
        "user.message": [
          { guard: "isDuplicate", actions: "reportDuplicate" },
          resolveAgent,
          { guard: { type: "policyIs", params: { policy: "reject" } }, actions: "rejectRunActive" },
          {
            guard: "steersMessage",
            actions: ["admit", "accept", "forwardSteer"],
          },
          {
            guard: { type: "policyIs", params: { policy: "interrupt" } },
            actions: ["admit", "accept", "enqueueMessage", "forwardCancel"],
          },
          { actions: ["admit", "accept", "enqueueMessage"] },
        ],
        "run.cancel": [
          { guard: "targetsActiveRun", actions: ["settleCancel", "forwardCancel"] },
          { actions: "settleNoRunToCancel" },
        ],
        "run.steer": [
          {
            guard: "targetsActiveRun",
            actions: ["admit", "accept", "settleApplied", "forwardSteer"],
          },
          { actions: "rejectRunNotActive" },
        ],
        "session.configure": configureSafely,
        "session.close": { target: "closing", actions: ["settleApplied", "forwardCancel"] },
        "session.compact": { actions: ["settleApplied", "forwardCompact"] },
        "tool.approve": forwardTool,
        "tool.deny": forwardTool,
        "question.answer": forwardTool,
        "session.fork": forkSession,
        "run.finished": [
          { guard: not("isActiveRunFinished") },
          { guard: "hasNextMessage", actions: ["finishRun", "startNextRun"] },
          { target: "idle", actions: ["finishRun", "announceIdle"] },
        ],
      },
    },
    resolving: {
      on: {
        "effect.completed": [
          { guard: not("isAgentResolution") },
          {
            guard: and(["resolvesAgent", "hasActiveRun"]),
            target: "running",
            actions: "adoptAgent",
          },
          { guard: "resolvesAgent", target: "idle", actions: "adoptAgent" },
          { guard: "hasActiveRun", target: "running", actions: "rejectUnresolvedAgent" },
          { target: "idle", actions: "rejectUnresolvedAgent" },
        ],
        "effect.failed": [
          { guard: not("isAgentResolution") },
          { guard: "hasActiveRun", target: "running", actions: "rejectUnresolvedAgent" },
          { target: "idle", actions: "rejectUnresolvedAgent" },
        ],
        // What does not depend on the held message's admission is not held: the
        // active run can still be cancelled, and its tool calls approved,
        // denied or answered, however long the resolution takes.
        "run.cancel": [
          {
            guard: and(["hasActiveRun", "targetsActiveRun"]),
            actions: ["settleCancel", "forwardCancel"],
          },
          { actions: "holdMessage" },
        ],
        "tool.approve": forwardTool,
        "tool.deny": forwardTool,
        "question.answer": forwardTool,
        "*": { actions: "holdMessage" },
      },
    },
    closing: {
      on: {
        "user.message": { actions: "rejectClosing" },
        "run.cancel": { actions: "settleCancelWhileClosing" },
        "session.close": { actions: "settleAlreadyClosed" },
        "run.steer": { actions: "rejectClosing" },
        "session.configure": { actions: "rejectClosing" },
        "session.compact": { actions: "rejectClosing" },
        "tool.approve": { actions: "rejectClosing" },
        "tool.deny": { actions: "rejectClosing" },
        "question.answer": { actions: "rejectClosing" },
        "session.fork": { actions: "rejectClosing" },
        "run.finished": {
          guard: "isActiveRunFinished",
          target: "closed",
          actions: ["finishRun", "dropQueue", "announceClosed"],
        },
      },
    },
    closed: {
      on: {
        "user.message": { actions: "rejectClosed" },
        "run.cancel": { actions: "rejectClosed" },
        "session.close": { actions: "settleAlreadyClosed" },
        "run.steer": { actions: "rejectClosed" },
        "session.configure": { actions: "rejectClosed" },
        "session.compact": { actions: "rejectClosed" },
        "tool.approve": { actions: "rejectClosed" },
        "tool.deny": { actions: "rejectClosed" },
        "question.answer": { actions: "rejectClosed" },
        "session.fork": { actions: "rejectClosed" },
      },
    },
  },
});
