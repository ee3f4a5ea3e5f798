import { TroupeError } from "@troupe/addressing";

/**
 * A recorded history (a file `troupe history export` wrote) could not be read:
 * it is not JSON or NDJSON, it is not a Troupe history, it was written by a
 * newer format version than this package reads, or a field breaks the schema.
 * Code `invalid_history`; never retryable (docs/decisions/0020).
 *
 * Shape: `TroupeError` plus `path` (where in the document, e.g.
 * `actors/0/journal/3/data`, or `line 7` for NDJSON; `""` for the whole
 * document).
 */
export class InvalidHistoryError extends TroupeError {
  /** Where in the document the problem is; `""` for the whole document. */
  readonly path: string;

  /**
   * @param message - what is wrong.
   * @param path - where in the document.
   * @param options - the underlying error, if any.
   */
  constructor(message: string, path = "", options: { cause?: unknown } = {}) {
    super("invalid_history", path === "" ? message : `${message} (at ${path})`, {
      retryable: false,
      details: { path },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = "InvalidHistoryError";
    this.path = path;
  }

  /**
   * Whether `value` is an `InvalidHistoryError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `invalid_history`.
   */
  static override isInstance(value: unknown): value is InvalidHistoryError {
    return TroupeError.isInstance(value) && value.code === "invalid_history";
  }
}
