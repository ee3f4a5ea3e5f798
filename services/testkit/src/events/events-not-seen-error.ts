import { TroupeError } from "@troupe/protocol";

/**
 * The events a test waited for did not all appear within its timeout
 * (`expectEvents`, `waitForApproval`, `waitForQuestion` of a test deployment). Code `timeout`.
 *
 * Shape: `{ code: "timeout", sessionId, timeoutMs, missing, seen }`: `missing`
 * describes the first expectation not met (and those after it), `seen` lists
 * the type of every event of the session read, in order.
 */
export class EventsNotSeenError extends TroupeError {
  /**
   * @param sessionId - the session whose events were read.
   * @param timeoutMs - how long the wait lasted, in ms.
   * @param missing - the expectations not met, described.
   * @param seen - the event types read, in stream order.
   */
  constructor(
    readonly sessionId: string,
    readonly timeoutMs: number,
    readonly missing: readonly string[],
    readonly seen: readonly string[],
  ) {
    super(
      "timeout",
      `session ${sessionId}: within ${timeoutMs} ms no event matched ${missing[0] ?? "?"}` +
        (missing.length > 1 ? ` (${missing.length - 1} more expected after it)` : "") +
        `; events seen, in order: ${seen.length === 0 ? "none" : seen.join(", ")}`,
      { details: { sessionId, timeoutMs, missing, seen } },
    );
    this.name = "EventsNotSeenError";
  }
}
