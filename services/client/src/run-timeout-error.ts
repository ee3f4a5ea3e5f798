import { TroupeError } from "@troupe/protocol";

/**
 * `waitForRun` / `sendAndWait` saw no outcome of the run within `timeoutMs`. The
 * run itself goes on (cancel it with `client.cancel`); waiting again may succeed,
 * so it is retryable. Code `timeout`.
 *
 * Shape: `TroupeError` plus `sessionId`, `timeoutMs` and `runId` (undefined when
 * the run had not started yet: the message was still queued, or not accepted).
 *
 * @example
 * ```ts
 * try {
 *   await client.sendAndWait("s1", "hello", { timeoutMs: 30_000 });
 * } catch (error) {
 *   if (RunTimeoutError.isInstance(error)) await client.cancel("s1", { runId: error.runId });
 * }
 * ```
 */
export class RunTimeoutError extends TroupeError {
  /** The session the run belongs to. */
  readonly sessionId: string;
  /** The deadline that passed, in ms. */
  readonly timeoutMs: number;
  /** The run waited for, when it was known. */
  readonly runId: string | undefined;

  /**
   * @param sessionId - the session.
   * @param timeoutMs - the deadline that passed, in ms.
   * @param runId - the run, when known.
   */
  constructor(sessionId: string, timeoutMs: number, runId: string | undefined) {
    const which = runId === undefined ? "the run (not started yet)" : `run ${runId}`;
    super("timeout", `No outcome of ${which} of session ${sessionId} within ${timeoutMs} ms.`, {
      retryable: true,
      details: { sessionId, timeoutMs, ...(runId === undefined ? {} : { runId }) },
    });
    this.name = "RunTimeoutError";
    this.sessionId = sessionId;
    this.timeoutMs = timeoutMs;
    this.runId = runId;
  }

  /**
   * Whether `value` is a `RunTimeoutError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `timeout` and this name.
   */
  static override isInstance(value: unknown): value is RunTimeoutError {
    return (
      TroupeError.isInstance(value) && value.code === "timeout" && value.name === "RunTimeoutError"
    );
  }
}
