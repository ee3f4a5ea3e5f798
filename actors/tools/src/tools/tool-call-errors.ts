const reportedBrand = Symbol.for("troupe.tool.reported-error");
const unknownBrand = Symbol.for("troupe.tool.outcome-unknown");

/**
 * Thrown by a tool's `execute` when the tool itself answered with an error —
 * an MCP result with `isError: true`, an API's refusal — so the call is over:
 * the handler records `failed` with this message for the model and runs the
 * call **no further attempt**, whatever its effect class (a plain throw of a
 * `read` is retried).
 *
 * @example
 * ```ts
 * if (result.isError) throw new ToolReportedError(`the server says: ${text}`);
 * ```
 */
export class ToolReportedError extends Error {
  readonly [reportedBrand] = true;

  /** @param message - what the tool answered, as the model reads it. */
  constructor(message: string) {
    super(message);
    this.name = "ToolReportedError";
  }

  /** Whether `value` is a {@link ToolReportedError} (from any copy of the package). */
  static isInstance(value: unknown): value is ToolReportedError {
    return typeof value === "object" && value !== null && reportedBrand in value;
  }
}

/**
 * Thrown by a tool's `execute` when the request left and its answer was lost —
 * the connection to an MCP server closed while the call was in flight, a
 * remote API timed out after receiving the request — so the call **may have
 * taken effect**. The handler treats it like an interrupted execution attempt:
 * a `read` or `idempotent_write` runs again (within its attempts), any other
 * class is recorded as `outcome_unknown` and never run again (docs/decisions/0024).
 */
export class ToolOutcomeUnknownError extends Error {
  readonly [unknownBrand] = true;

  /**
   * @param message - what happened, e.g. `connection to MCP server "fs" closed during the call`.
   * @param options - `cause`: the underlying error.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolOutcomeUnknownError";
  }

  /** Whether `value` is a {@link ToolOutcomeUnknownError} (from any copy of the package). */
  static isInstance(value: unknown): value is ToolOutcomeUnknownError {
    return typeof value === "object" && value !== null && unknownBrand in value;
  }
}
