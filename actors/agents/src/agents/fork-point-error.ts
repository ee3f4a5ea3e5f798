import { TroupeError } from "@troupe/protocol";

/**
 * A fork cannot be made (docs/decisions/0043): code `unknown_session` (the source has no
 * stored history), `fork_point_out_of_range` (no such ended run, or a sequence
 * outside the source's stored events) or `fork_too_deep` (more than
 * `MAX_TRANSCRIPT_BASE_SEGMENTS` shared segments). Not retryable; the new
 * session refuses `session.fork` with this code and message.
 */
export class ForkPointError extends TroupeError {
  /**
   * @param code - which of the three.
   * @param message - the sentence for humans.
   * @param details - the source session and the point asked for.
   */
  constructor(
    code: "unknown_session" | "fork_point_out_of_range" | "fork_too_deep",
    message: string,
    details: Record<string, unknown>,
  ) {
    super(code, message, { retryable: false, details });
    this.name = "ForkPointError";
  }
}
