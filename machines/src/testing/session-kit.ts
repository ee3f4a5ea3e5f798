import {
  AGENT_RESOLVE_EFFECT,
  EFFECT_ACTION,
  type AgentResolveOutput,
  type EffectRequestParams,
  type RunFinished,
  type UserMessage,
} from "@troupe/protocol";
import type { SnapshotFrom } from "xstate";
import { DEFAULT_MAX_MODEL_CALLS, DEFAULT_SESSION_POLICY } from "../session/session-context.js";
import { sessionMachine } from "../session/session-machine.js";
import type { SessionEvent } from "../session/session-events.js";
import { inboxEvent } from "./inbox.js";
import { sendEvent, startMachine, type PureStep, type RequestedAction } from "./pure-driver.js";

/** A session snapshot. */
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The settings the kit's stand-in host reports for every agent: the machine's defaults. */
export const KIT_AGENT_SETTINGS: AgentResolveOutput = {
  policy: DEFAULT_SESSION_POLICY,
  maxModelCalls: DEFAULT_MAX_MODEL_CALLS,
};

/** A fresh session `session/s1`. */
export function newSession(sessionId = "s1"): SessionSnapshot {
  return startMachine(sessionMachine, { address: { kind: "session", id: sessionId } }).snapshot;
}

/**
 * One pure transition of the session machine (through a JSON round trip of the
 * snapshot), exactly as the host takes it: an `agent.resolve` request is among
 * the actions and the session waits in `resolving`.
 */
export function sessionTransition(
  snapshot: SessionSnapshot,
  event: SessionEvent,
): PureStep<typeof sessionMachine> {
  return sendEvent(sessionMachine, snapshot, event);
}

/**
 * One pure transition of the session machine, with the `agent.resolve` requests
 * it makes answered at once by a stand-in host that serves every agent name
 * with {@link KIT_AGENT_SETTINGS}: the step shows what the event leads to once
 * its agent is known (the requests themselves are left out of `actions`). Use
 * {@link sessionTransition} to see the requests and the waiting.
 */
export function sessionStep(
  snapshot: SessionSnapshot,
  event: SessionEvent,
): PureStep<typeof sessionMachine> {
  let step = sessionTransition(snapshot, event);
  for (;;) {
    const request = step.actions.find(isAgentResolveRequest);
    if (request === undefined) return step;
    const effectId = (request.params as EffectRequestParams).effectId ?? "";
    const answered = sessionTransition(step.snapshot, agentResolved(effectId));
    step = {
      snapshot: answered.snapshot,
      actions: [...step.actions.filter((action) => action !== request), ...answered.actions],
    };
  }
}

function isAgentResolveRequest(action: RequestedAction): boolean {
  return (
    action.type === EFFECT_ACTION &&
    (action.params as EffectRequestParams).effect === AGENT_RESOLVE_EFFECT
  );
}

/** `effect.completed` of the session's `agent.resolve` request `effectId`. */
export function agentResolved(
  effectId: string,
  settings: AgentResolveOutput = KIT_AGENT_SETTINGS,
): SessionEvent {
  return { type: "effect.completed", effectId, effect: AGENT_RESOLVE_EFFECT, output: settings };
}

/** `effect.failed` of `agent.resolve` request `effectId`: the host serves no such agent. */
export function agentUnknown(
  effectId: string,
  agent: string,
  served = ["assistant"],
): SessionEvent {
  return {
    type: "effect.failed",
    effectId,
    effect: AGENT_RESOLVE_EFFECT,
    error: {
      code: "unknown_agent",
      message: `Unknown agent "${agent}". This host serves: ${served.join(", ")}.`,
      retryable: false,
    },
  };
}

/** A `user.message` event with envelope id `messageId`. */
export function userMessage(messageId: string, payload: UserMessage) {
  return inboxEvent("user.message", payload, messageId);
}

/** A `run.finished` event from the run actor. */
export function runFinished(payload: RunFinished, messageId = `run/s1:out:${payload.runId}`) {
  return inboxEvent("run.finished", payload, messageId);
}

/**
 * Feeds events one after another (each a {@link sessionStep}) and returns the last step.
 *
 * @param snapshot - the starting snapshot.
 * @param events - events in order.
 */
export function sessionSteps(
  snapshot: SessionSnapshot,
  ...events: SessionEvent[]
): PureStep<typeof sessionMachine> {
  let step: PureStep<typeof sessionMachine> = { snapshot, actions: [] };
  for (const event of events) step = sessionStep(step.snapshot, event);
  return step;
}
