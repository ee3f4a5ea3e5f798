import { TroupeError } from "@troupe/protocol";

/**
 * An actor has no stored snapshot: it was never created (no message created
 * it), or its keys are gone. Nothing can be read or exported for it. Code
 * `actor_not_found`, not retryable.
 *
 * Shape: `{ code, message, actor, details: { actor, journalMessages } }`.
 */
export class ActorNotFoundError extends TroupeError {
  /**
   * @param actor - `kind/id`.
   * @param journalMessages - how many inbox messages its journal still holds.
   */
  constructor(
    readonly actor: string,
    readonly journalMessages: number,
  ) {
    super(
      "actor_not_found",
      journalMessages === 0
        ? `actor ${actor} has no stored snapshot and no journal: no message ever reached it (or it is past retention)`
        : `actor ${actor} has no stored snapshot: the ${journalMessages} message(s) of its journal created nothing, or the host has not processed them yet`,
      { retryable: false, details: { actor, journalMessages } },
    );
    this.name = "ActorNotFoundError";
  }

  /**
   * Whether `value` is an {@link ActorNotFoundError}, from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns true for a Troupe error with code `actor_not_found`.
   */
  static override isInstance(value: unknown): value is ActorNotFoundError {
    return TroupeError.isInstance(value) && value.code === "actor_not_found";
  }
}
