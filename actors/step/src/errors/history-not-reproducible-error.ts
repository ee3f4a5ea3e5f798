import { TroupeError } from "@troupe/protocol";

/** Why a history does not reproduce its stored snapshots. */
export type NotReproducibleReason =
  /** A replayed generation differs from the stored one (the machine or kind changed). */
  | "diverged"
  /**
   * The replay reached another generation than the stored one: the journal lost
   * early messages to retention (or holds messages the store never saw).
   */
  | "journal_incomplete";

/**
 * Replaying an actor's journal through the step does not give its stored
 * snapshot generations, so `exportActorHistory` writes no history: a fixture
 * that does not reproduce would prove nothing. Code `history_not_reproducible`,
 * not retryable (docs/decisions/0021).
 *
 * Shape: `{ code, message, actor, generation, path, expected, actual, reason,
 * details: { actor, generation, path, reason } }` — `path` is JSON-pointer-like
 * (`/state/context/count`, `/generation`), `expected` the stored value and
 * `actual` the replayed one.
 */
export class HistoryNotReproducibleError extends TroupeError {
  /**
   * @param actor - `kind/id`.
   * @param generation - the stored generation that differs.
   * @param path - where the records first differ (`/` for the whole record).
   * @param expected - the stored value at `path`.
   * @param actual - the replayed value at `path`.
   * @param reason - see {@link NotReproducibleReason}.
   */
  constructor(
    readonly actor: string,
    readonly generation: number,
    readonly path: string,
    readonly expected: unknown,
    readonly actual: unknown,
    readonly reason: NotReproducibleReason,
  ) {
    super(
      "history_not_reproducible",
      reason === "journal_incomplete"
        ? `actor ${actor}: its journal does not reproduce stored generation ${generation} ` +
            `(replay reached generation ${describe(actual)}); early messages are past the journal's retention, ` +
            `so no history was written`
        : `actor ${actor}: replaying its journal does not reproduce stored generation ${generation} ` +
            `at ${path} (stored ${describe(expected)}, replayed ${describe(actual)}); ` +
            `the machine or its kind changed since, so no history was written`,
      { retryable: false, details: { actor, generation, path, reason } },
    );
    this.name = "HistoryNotReproducibleError";
  }

  /**
   * Whether `value` is a {@link HistoryNotReproducibleError}, from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns true for a Troupe error with code `history_not_reproducible`.
   */
  static override isInstance(value: unknown): value is HistoryNotReproducibleError {
    return TroupeError.isInstance(value) && value.code === "history_not_reproducible";
  }
}

const SHOWN_CHARACTERS = 120;

function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
}
