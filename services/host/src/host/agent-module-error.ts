import { TroupeError } from "@troupe/protocol";

/**
 * An agent module given to `troupe host --agent` or `troupe dev --agent` could
 * not be loaded or does not export agents. Not retryable: fix the module.
 */
export class AgentModuleError extends TroupeError {
  /**
   * @param modulePath - the module as given.
   * @param reason - what is wrong, in words.
   * @param options - the underlying error.
   */
  constructor(
    readonly modulePath: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("invalid_agent", `Agent module ${modulePath}: ${reason}`, {
      retryable: false,
      details: { modulePath },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = "AgentModuleError";
  }
}
