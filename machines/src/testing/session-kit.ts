import type { RunFinished, UserMessage } from "@troupe/protocol";
import type { SnapshotFrom } from "xstate";
import { sessionMachine } from "../session/session-machine.js";
import type { SessionEvent } from "../session/session-events.js";
import { inboxEvent } from "./inbox.js";
import { sendEvent, startMachine, type PureStep } from "./pure-driver.js";

/** A session snapshot. */
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** A fresh session `session/s1`. */
export function newSession(sessionId = "s1"): SessionSnapshot {
  return startMachine(sessionMachine, { address: { kind: "session", id: sessionId } }).snapshot;
}

/** One pure transition of the session machine (through a JSON round trip of the snapshot). */
export function sessionStep(
  snapshot: SessionSnapshot,
  event: SessionEvent,
): PureStep<typeof sessionMachine> {
  return sendEvent(sessionMachine, snapshot, event);
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
 * Feeds events one after another and returns the last step.
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
