import { TroupeError } from "@troupe/protocol";

/** The hint every {@link UnsupportedMachineActionError} ends with. */
export const HOST_IO_HINT =
  "ask the host for IO with requestEffect/sendMessage from @troupe/protocol (effects run on the host and answer into the inbox; messages go to other actors)";

/**
 * A hosted machine uses an xstate action or an `invoke` the host cannot carry
 * out. The host runs machines through xstate's pure `transition()`, which
 * returns actions as data instead of running them; the host carries out
 * `emit`, delayed `raise` (durable timers), `cancel` and the `troupe.*` host
 * actions, lets `assign`, immediate `raise`, `log` and `enqueueActions` pass
 * (xstate resolves them), and refuses everything else rather than drop it
 * silently: child actors (`invoke`, `spawnChild`, `spawn` in `assign`),
 * `sendTo`/`sendParent`/`forwardTo`, `stopChild`, and action implementations
 * (named custom actions, inline functions), which would never run.
 *
 * Code `unsupported_machine_action`, not retryable. Thrown at registration
 * (`ActorHost.start`, `replayActor`) for what the machine's state nodes show;
 * an action only visible at run time (enqueued by `enqueueActions`) rejects the
 * message that caused it like any other processing failure (dead letter with
 * this code, `message.rejected` event, state untouched).
 *
 * Shape: `{ code, message, kind, statePath, action, details: { kind, statePath, action } }`.
 */
export class UnsupportedMachineActionError extends TroupeError {
  /**
   * @param kind - the actor kind whose machine uses the action.
   * @param statePath - where: dot-separated state keys from the root (`""` is the
   *   root node), or undefined when only the step saw it.
   * @param action - what: the action type or a description (`invoke of "fetchUser"`).
   * @param reason - why the host cannot carry it out.
   */
  constructor(
    readonly kind: string,
    readonly statePath: string | undefined,
    readonly action: string,
    reason: string,
  ) {
    const where =
      statePath === undefined
        ? "a transition"
        : statePath === ""
          ? "the root state node"
          : `state "${statePath}"`;
    super(
      "unsupported_machine_action",
      `actor kind "${kind}": ${where} uses ${action}, which a hosted machine cannot use: ${reason}; ${HOST_IO_HINT}`,
      { retryable: false, details: { kind, statePath: statePath ?? null, action } },
    );
    this.name = "UnsupportedMachineActionError";
  }

  /**
   * Whether `value` is an {@link UnsupportedMachineActionError}, from any copy of
   * the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns true for an {@link UnsupportedMachineActionError}.
   */
  static override isInstance(value: unknown): value is UnsupportedMachineActionError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "unsupported_machine_action" &&
      value.name === "UnsupportedMachineActionError"
    );
  }
}
