import {
  APPEND_ACTION,
  CANCEL_EFFECT_ACTION,
  EFFECT_ACTION,
  EMIT_ACTION,
  SEND_ACTION,
} from "@troupe/protocol";

/**
 * Action types the host handles when xstate's pure `transition()` returns them:
 * `xstate.emit` (an event), `xstate.raise` (with a delay: a durable timer;
 * without one xstate already processed it), `xstate.cancel` (cancels a timer),
 * `xstate.log` (nothing to do: logging is a side effect the host does not run)
 * and the host actions of `@troupe/protocol` (`troupe.effect`, `troupe.send`,
 * `troupe.emit`, `troupe.append`, `troupe.cancelEffect`).
 *
 * Found by experiment with xstate 5.33: `transition()` returns built-in actions
 * as `{ type: "xstate.<name>", params }` (`emit`, `raise`, `cancel`, `log`,
 * `sendTo` — also for `sendParent` and `forwardTo` —, `spawnChild`,
 * `stopChild`), never returns `assign` or `enqueueActions` (it resolves them
 * and returns what `enqueueActions` enqueued), and returns named custom actions
 * and inline functions with their implementation unrun. `spawn` inside `assign`
 * returns no action at all: it shows only as a child in the next snapshot.
 */
export const HOST_HANDLED_ACTION_TYPES: ReadonlySet<string> = new Set([
  "xstate.emit",
  "xstate.raise",
  "xstate.cancel",
  "xstate.log",
  EMIT_ACTION,
  EFFECT_ACTION,
  SEND_ACTION,
  APPEND_ACTION,
  CANCEL_EFFECT_ACTION,
]);

/**
 * Built-in actions xstate resolves inside `transition()` itself (see
 * {@link HOST_HANDLED_ACTION_TYPES}): allowed in a machine definition. What an
 * `enqueueActions` enqueues is only known at run time and checked by the step.
 */
export const XSTATE_RESOLVED_ACTION_TYPES: ReadonlySet<string> = new Set([
  "xstate.assign",
  "xstate.enqueueActions",
]);

/** Why an action implementation the host would be handed is refused. */
export const ACTION_IMPLEMENTATION_REASON =
  "the host runs no action implementations (xstate's pure transition() returns the action without running it), so it would be dropped";

/** Why a child actor (`invoke`, `spawnChild`, `spawn` in `assign`) is refused. */
export const CHILD_ACTOR_REASON =
  "child actors live in one process's memory and do not survive a host; make the child an actor kind of its own";

const builtinReasons: Readonly<Record<string, string>> = {
  "xstate.spawnChild": CHILD_ACTOR_REASON,
  "xstate.stopChild": "a hosted machine has no child actors to stop",
  "xstate.sendTo":
    "a hosted machine has no in-process actors to send to (sendTo, sendParent and forwardTo all need one)",
};

/**
 * Why the host cannot carry out an action of this type.
 *
 * @param type - an action type as `transition()` returns it, or the `type` of a
 *   built-in action creator (`xstate.sendTo`, …).
 * @returns undefined when the host handles the type (see
 *   {@link HOST_HANDLED_ACTION_TYPES}), else a reason for humans.
 */
export function unsupportedActionReason(type: string): string | undefined {
  if (HOST_HANDLED_ACTION_TYPES.has(type)) return undefined;
  return (
    builtinReasons[type] ??
    (type.startsWith("xstate.")
      ? "the host does not carry out this built-in action"
      : ACTION_IMPLEMENTATION_REASON)
  );
}
