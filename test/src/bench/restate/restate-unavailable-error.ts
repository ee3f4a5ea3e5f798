const brand = Symbol.for("troupe.bench.RestateUnavailableError");

/**
 * Restate cannot run here: its binary is missing, or `restate-server` or the
 * turn endpoint did not start (or become ready) within its deadline. The
 * agent-turn benchmark then skips its Restate phase and prints
 * {@link RestateUnavailableError.reason} in the report.
 *
 * Shape: `{ code: "restate_unavailable", retryable: false, reason }`. Whatever
 * was started has been stopped, and its folder removed, by the time this is thrown.
 */
export class RestateUnavailableError extends Error {
  /** Stable machine-readable code. */
  readonly code = "restate_unavailable";
  /** The benchmark does not try again in the same run. */
  readonly retryable = false;
  /** One line for the report, e.g. `no restate-server binary for linux-arm`. */
  readonly reason: string;
  readonly [brand] = true;

  /**
   * @param reason - one line for the report.
   * @param details - more for the error message (e.g. the server's last output); default none.
   * @param options - standard error options; `cause` is kept.
   */
  constructor(reason: string, details = "", options?: ErrorOptions) {
    super(
      details.trim() === "" ? reason : `${reason}\n--- last output ---\n${details.trim()}`,
      options,
    );
    this.name = "RestateUnavailableError";
    this.reason = reason;
  }

  /**
   * Checks by brand rather than `instanceof`.
   *
   * @param value - anything caught.
   * @returns whether `value` is a {@link RestateUnavailableError}.
   */
  static isInstance(value: unknown): value is RestateUnavailableError {
    return typeof value === "object" && value !== null && brand in value;
  }
}
