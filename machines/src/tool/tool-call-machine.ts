import { toolActorId, hostActionImplementations } from "@troupe/protocol";
import { and, not, setup } from "xstate";
import type { ActorInput, ToolPolicyDecision } from "@troupe/protocol";
import { stepAction } from "../host-actions/machine-step.js";
import { initialToolCallContext, type ToolCallContext } from "./tool-call-context.js";
import {
  ASK_USER_TOOL,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  TOOL_EXECUTE_EFFECT_ID,
  type ToolCallEvent,
} from "./tool-call-events.js";
import {
  answerQuestion,
  approve,
  callOf,
  askQuestion,
  cancelBeforeStart,
  cancelExecution,
  denyByPolicy,
  denyByUser,
  questionOf,
  rejectQuestion,
  reportAlreadySettled,
  reportOutcome,
  requestApproval,
  startCall,
  timeOutApproval,
} from "./tool-call-steps.js";
import {
  approveDelegation,
  canDelegate,
  cancelDelegation,
  finishDelegation,
  isOwnSubagent,
  startDelegation,
} from "./tool-call-delegation.js";
import {
  settleAlreadyAnswered,
  settleAlreadyDecided,
  settleApplied,
  settleNothingToActOn,
  settleUnknownId,
} from "./tool-call-verdicts.js";

const step = stepAction<ToolCallContext, ToolCallEvent>;
/**
 * A `tool.approve` / `tool.deny` once the call runs or ended: the first decision
 * (`already_settled`), or nothing to act on (the call never asked), or an
 * unknown id.
 */
const lateSettlement = [
  {
    guard: and(["settlesCall", "wasSettled"]),
    actions: ["settleAlreadyDecided", "reportAlreadySettled"],
  },
  { guard: "settlesCall", actions: "settleNothingToActOn" },
  { actions: "settleUnknownId" },
] as const;
/** A `question.answer` once the call runs or ended. */
const lateAnswer = [
  { guard: and(["answersCall", "asksQuestion"]), actions: "settleAlreadyAnswered" },
  { guard: "answersCall", actions: "settleNothingToActOn" },
  { actions: "settleUnknownId" },
] as const;

/**
 * The actor of one tool call (`tool/<toolActorId(sessionId, runId, toolCallId)>`):
 * on `tool.start` from the run it publishes `tool.started` and runs the
 * `tool.execute` effect once; when the effect ends it publishes
 * `tool.completed`, `tool.failed` or `tool.outcome_unknown` and answers the run
 * with `tool.finished`. `tool.cancel` aborts the effect (the run does not wait
 * for an answer). Everything after the end is ignored, repeated `tool.start`s
 * included, so the call runs at most once per actor.
 *
 * Before running, the call follows the policy decision `tool.start` carries:
 * `deny` ends it `failed` at once; `ask` publishes `tool.approval_requested` and
 * waits (durably, `approvalTimeoutMs`, default 24 h) for the first `tool.approve`
 * / `tool.deny` the session forwards — a timeout counts as a denial, later
 * settlements get `tool.approval_settled` with `alreadySettled`. Every forwarded
 * `tool.approve` / `tool.deny` / `question.answer` is answered with
 * `command.settled` (tool-call-verdicts.ts); one that reaches an actor with
 * no call (`idle`) is `unknown_id` and leaves the machine as it was. The built-in
 * `ask_user` runs no effect: it publishes `question.asked` and ends with the
 * text of the `question.answer` the session forwards.
 *
 * A subagent call (`tool.start` with `subagent`) runs no effect either: it
 * sends the task to the subagent's session and waits in `delegating` for its
 * `subagent.finished` (see tool-call-delegation.ts).
 *
 * States: `idle` (no call yet), `awaitingApproval`, `awaitingAnswer`,
 * `executing` (the effect runs), `delegating` (a subagent works), `done`. See ../../README.md.
 *
 * Input: `{ address: { kind: "tool", id: toolActorId } }`.
 *
 * @example
 * const [snapshot] = initialTransition(toolCallMachine, { address: { kind: "tool", id } });
 */
export const toolCallMachine = setup({
  types: {
    context: {} as ToolCallContext,
    events: {} as ToolCallEvent,
    input: {} as ActorInput,
  },
  actions: {
    ...hostActionImplementations,
    startCall: step(startCall),
    reportOutcome: step(reportOutcome),
    cancelExecution: step(cancelExecution),
    cancelBeforeStart: step(cancelBeforeStart),
    denyByPolicy: step(denyByPolicy),
    requestApproval: step(requestApproval),
    approve: step(approve),
    denyByUser: step(denyByUser),
    timeOutApproval: step(timeOutApproval),
    reportAlreadySettled: step(reportAlreadySettled),
    askQuestion: step(askQuestion),
    rejectQuestion: step(rejectQuestion),
    answerQuestion: step(answerQuestion),
    startDelegation: step(startDelegation),
    approveDelegation: step(approveDelegation),
    finishDelegation: step(finishDelegation),
    cancelDelegation: step(cancelDelegation),
    settleApplied: step(settleApplied),
    settleAlreadyDecided: step(settleAlreadyDecided),
    settleAlreadyAnswered: step(settleAlreadyAnswered),
    settleNothingToActOn: step(settleNothingToActOn),
    settleUnknownId: step(settleUnknownId),
  },
  guards: {
    /** A `tool.start` whose session, run and call id hash to this actor's id. */
    isOwnCall: ({ context, event }) =>
      event.type === "tool.start" &&
      toolActorId(event.sessionId, event.runId, event.toolCallId) === context.actorId,
    /** The result of this actor's `tool.execute` effect. */
    isOwnEffect: ({ event }) =>
      (event.type === "effect.completed" || event.type === "effect.failed") &&
      event.effectId === TOOL_EXECUTE_EFFECT_ID,
    /** A first `tool.cancel` for the call being executed. */
    cancelsCall: ({ context: { call, cancelRequested }, event }) =>
      event.type === "tool.cancel" &&
      call !== undefined &&
      !cancelRequested &&
      event.runId === call.runId &&
      event.toolCallId === call.toolCallId,
    /** The policy decision of the `tool.start` (absent = `allow`). */
    decisionIs: ({ event }, params: { decision: ToolPolicyDecision }) =>
      event.type === "tool.start" && (event.decision ?? "allow") === params.decision,
    /** A `tool.start` of a subagent call. */
    isSubagentCall: ({ event }) => event.type === "tool.start" && event.subagent !== undefined,
    /** A `tool.start` of a subagent call that may delegate (a task, depth within the limit). */
    delegates: ({ event }) => canDelegate(callOf(event)),
    /** The call waiting for approval is a subagent call that may delegate. */
    callDelegates: ({ context }) => canDelegate(context.call),
    /** The `subagent.finished` of this call's subagent session. */
    isOwnSubagent: ({ context, event }) => isOwnSubagent(context, event),
    /** A `tool.start` of the built-in `ask_user`. */
    isAskUser: ({ event }) => event.type === "tool.start" && event.toolName === ASK_USER_TOOL,
    /** An `ask_user` call whose arguments hold a question. */
    hasQuestion: ({ event }) =>
      event.type === "tool.start" && questionOf(event.input) !== undefined,
    /** A `tool.approve` / `tool.deny` for this call. */
    settlesCall: ({ context: { call }, event }) =>
      (event.type === "tool.approve" || event.type === "tool.deny") &&
      call !== undefined &&
      event.toolCallId === call.toolCallId,
    /** The call (from `tool.start`) is a subagent call. */
    callIsSubagent: ({ context }) => context.call?.subagent !== undefined,
    /** The call's approval was settled already. */
    wasSettled: ({ context }) => context.approval !== undefined,
    /** The call is the built-in `ask_user` (it asked a question). */
    asksQuestion: ({ context }) => context.call?.toolName === ASK_USER_TOOL,
    /** A `question.answer` for this call's question. */
    answersCall: ({ context: { call }, event }) =>
      event.type === "question.answer" &&
      call !== undefined &&
      event.questionId === call.toolCallId,
  },
  delays: {
    approvalTimeout: ({ context }) =>
      context.call?.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
  },
}).createMachine({
  id: "tool",
  context: ({ input }) => initialToolCallContext(input),
  initial: "idle",
  states: {
    idle: {
      on: {
        "tool.start": [
          { guard: not("isOwnCall") },
          {
            guard: { type: "decisionIs", params: { decision: "deny" } },
            target: "done",
            actions: "denyByPolicy",
          },
          {
            guard: and(["isAskUser", "hasQuestion"]),
            target: "awaitingAnswer",
            actions: "askQuestion",
          },
          { guard: "isAskUser", target: "done", actions: "rejectQuestion" },
          {
            guard: { type: "decisionIs", params: { decision: "ask" } },
            target: "awaitingApproval",
            actions: "requestApproval",
          },
          { guard: "delegates", target: "delegating", actions: "startDelegation" },
          { guard: "isSubagentCall", target: "done", actions: "startDelegation" },
          { target: "executing", actions: "startCall" },
        ],
        "tool.cancel": { target: "done", actions: "cancelBeforeStart" },
        // No tool.start reached this actor: the command names no call. The
        // machine stays as it was, so the host stores nothing.
        "tool.approve": { actions: "settleUnknownId" },
        "tool.deny": { actions: "settleUnknownId" },
        "question.answer": { actions: "settleUnknownId" },
      },
    },
    awaitingApproval: {
      after: { approvalTimeout: { target: "done", actions: "timeOutApproval" } },
      on: {
        "tool.approve": [
          {
            guard: and(["settlesCall", "callDelegates"]),
            target: "delegating",
            actions: ["settleApplied", "approveDelegation"],
          },
          {
            guard: and(["settlesCall", "callIsSubagent"]),
            target: "done",
            actions: ["settleApplied", "approveDelegation"],
          },
          { guard: "settlesCall", target: "executing", actions: ["settleApplied", "approve"] },
          { actions: "settleUnknownId" },
        ],
        "tool.deny": [
          { guard: "settlesCall", target: "done", actions: ["settleApplied", "denyByUser"] },
          { actions: "settleUnknownId" },
        ],
        "question.answer": [
          { guard: "answersCall", actions: "settleNothingToActOn" },
          { actions: "settleUnknownId" },
        ],
        "tool.cancel": { guard: "cancelsCall", target: "done", actions: "cancelBeforeStart" },
      },
    },
    awaitingAnswer: {
      on: {
        "question.answer": [
          {
            guard: "answersCall",
            target: "done",
            actions: ["settleApplied", "answerQuestion"],
          },
          { actions: "settleUnknownId" },
        ],
        "tool.approve": lateSettlement,
        "tool.deny": lateSettlement,
        "tool.cancel": { guard: "cancelsCall", target: "done", actions: "cancelBeforeStart" },
      },
    },
    executing: {
      on: {
        "effect.completed": [
          { guard: not("isOwnEffect") },
          { target: "done", actions: "reportOutcome" },
        ],
        "effect.failed": [
          { guard: not("isOwnEffect") },
          { target: "done", actions: "reportOutcome" },
        ],
        "tool.cancel": { guard: "cancelsCall", actions: "cancelExecution" },
        "tool.approve": lateSettlement,
        "tool.deny": lateSettlement,
        "question.answer": lateAnswer,
      },
    },
    // A subagent call: its session works on the task; it ends on the
    // session's subagent.finished (after a tool.cancel too, so the call ends
    // once the subagent's run has really stopped).
    delegating: {
      on: {
        "subagent.finished": {
          guard: "isOwnSubagent",
          target: "done",
          actions: "finishDelegation",
        },
        "tool.cancel": { guard: "cancelsCall", actions: "cancelDelegation" },
        "tool.approve": lateSettlement,
        "tool.deny": lateSettlement,
        "question.answer": lateAnswer,
      },
    },
    // Not a final state: the actor stays addressable and ignores whatever comes
    // later (a re-published tool.start, a late tool.cancel), except that a late
    // approval or denial is told the first settlement.
    done: {
      on: {
        "tool.approve": lateSettlement,
        "tool.deny": lateSettlement,
        "question.answer": lateAnswer,
      },
    },
  },
});
