import { TroupeError } from "@troupe/protocol";

/**
 * A session asked for an agent this host does not serve. Code `unknown_agent`,
 * not retryable; the message and `details.served` list the served agents.
 *
 * @example
 * ```ts
 * // Unknown agent "planner". This host serves: assistant, researcher.
 * ```
 */
export class UnknownAgentError extends TroupeError {
  /**
   * @param agentName - the name asked for.
   * @param served - the names of the agents the host serves.
   */
  constructor(
    readonly agentName: string,
    readonly served: readonly string[],
  ) {
    super(
      "unknown_agent",
      `Unknown agent "${agentName}". This host serves: ${served.join(", ")}.`,
      { retryable: false, details: { agentName, served: [...served] } },
    );
    this.name = "UnknownAgentError";
  }
}
