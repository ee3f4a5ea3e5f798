import { toolActorId } from "@troupe/protocol";
import { not, setup } from "xstate";
import { hostActionImplementations } from "../host-actions/host-actions.js";
import type { ActorInput } from "../host-actions/inbox-event.js";
import { stepAction } from "../host-actions/machine-step.js";
import { initialToolCallContext, type ToolCallContext } from "./tool-call-context.js";
import type { ToolCallEvent } from "./tool-call-events.js";
import { cancelBeforeStart, cancelExecution, reportOutcome, startCall } from "./tool-call-steps.js";
import { TOOL_EXECUTE_EFFECT_ID } from "./tool-execute.js";

const step = stepAction<ToolCallContext, ToolCallEvent>;

/**
 * The actor of one tool call (`tool/<toolActorId(sessionId, runId, toolCallId)>`):
 * on `tool.start` from the run it publishes `tool.started` and runs the
 * `tool.execute` effect once; when the effect ends it publishes
 * `tool.completed`, `tool.failed` or `tool.outcome_unknown` and answers the run
 * with `tool.finished`. `tool.cancel` aborts the effect (the run does not wait
 * for an answer). Everything after the end is ignored, repeated `tool.start`s
 * included, so the call runs at most once per actor.
 *
 * States: `idle` (no call yet), `executing` (the effect runs), `done`. See
 * ../../README.md.
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
  },
}).createMachine({
  id: "tool",
  context: ({ input }) => initialToolCallContext(input),
  initial: "idle",
  states: {
    idle: {
      on: {
        "tool.start": { guard: "isOwnCall", target: "executing", actions: "startCall" },
        "tool.cancel": { target: "done", actions: "cancelBeforeStart" },
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
      },
    },
    // Not a final state: the actor stays addressable and ignores whatever comes
    // later (a re-published tool.start, a late tool.cancel).
    done: {},
  },
});
