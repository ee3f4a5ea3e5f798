import { TroupeError } from "@troupe/protocol";

/** One problem of a tool definition: where (a path of keys) and what. */
export interface ToolIssue {
  /** Path of the offending field, e.g. `["timeoutMs"]`. */
  readonly path: readonly (string | number)[];
  /** What is wrong with it. */
  readonly message: string;
}

/**
 * A tool definition breaks the rules of `defineTool`. A tool is part of an
 * agent's definition, so the code is `invalid_agent` (not retryable);
 * `details.toolName` and `details.issues` say what is wrong.
 *
 * @example
 * ```ts
 * // Invalid tool "get weather": name: must be 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-".
 * ```
 */
export class InvalidToolError extends TroupeError {
  /**
   * @param toolName - the tool's name when known.
   * @param issues - every problem found.
   */
  constructor(
    readonly toolName: string | undefined,
    readonly issues: readonly ToolIssue[],
  ) {
    const which = toolName === undefined ? "tool definition" : `tool "${toolName}"`;
    const list = issues
      .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ` : "") + issue.message)
      .join("; ");
    super("invalid_agent", `Invalid ${which}: ${list}.`, {
      retryable: false,
      details: { ...(toolName === undefined ? {} : { toolName }), issues: [...issues] },
    });
    this.name = "InvalidToolError";
  }
}
