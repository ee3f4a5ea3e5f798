import { TroupeError } from "@troupe/protocol";

/** One problem of an agent definition: where (a path of keys) and what. */
export interface AgentIssue {
  /** Path of the offending field, e.g. `["limits", "maxModelCalls"]`. */
  readonly path: readonly (string | number)[];
  /** What is wrong with it. */
  readonly message: string;
}

/**
 * An agent definition breaks the rules of `defineAgent`, or a set of agents
 * cannot be served together (duplicate names, unknown default). Code
 * `invalid_agent`, not retryable; `details.issues` lists every problem.
 */
export class InvalidAgentError extends TroupeError {
  /**
   * @param agentName - the agent's name when known.
   * @param issues - every problem found.
   * @param cause - the underlying error, if any.
   */
  constructor(
    readonly agentName: string | undefined,
    readonly issues: readonly AgentIssue[],
    cause?: unknown,
  ) {
    const which = agentName === undefined ? "agent definition" : `agent "${agentName}"`;
    const list = issues
      .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ` : "") + issue.message)
      .join("; ");
    super("invalid_agent", `Invalid ${which}: ${list}.`, {
      retryable: false,
      cause,
      details: { ...(agentName === undefined ? {} : { agentName }), issues: [...issues] },
    });
    this.name = "InvalidAgentError";
  }
}
