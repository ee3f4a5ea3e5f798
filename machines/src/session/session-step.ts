import type { MachineStep } from "../host-actions/machine-step.js";
import type { SessionContext } from "./session-context.js";
import type { SessionEvent } from "./session-events.js";

/** A step of the session machine: context and event in, patch and host actions out. */
export type SessionStep = (
  context: SessionContext,
  event: SessionEvent,
) => MachineStep<SessionContext>;

/** Id of the `n`-th run of a session (1-based): `r<n>`. */
export const runIdAt = (runCount: number): string => `r${runCount}`;

/**
 * The envelope id of the message an event came from (an effect result, which
 * the session's message steps never see, answers with its effect id).
 */
export const messageIdOf = (event: SessionEvent): string =>
  "messageId" in event ? event.messageId : event.effectId;

/** The text a `user.message` or `run.steer` carries; empty for other events. */
export const textOf = (event: SessionEvent): string =>
  event.type === "user.message" || event.type === "run.steer" ? event.text : "";
