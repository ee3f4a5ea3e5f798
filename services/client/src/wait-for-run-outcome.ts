import { ClientClosedError } from "./client-closed-error.js";
import { MessageRejectedError } from "./message-rejected-error.js";
import type { RunOutcome } from "./run-outcome.js";
import { RunTimeoutError } from "./run-timeout-error.js";
import { RunTracker, type RunTarget } from "./run-tracker.js";
import type { SessionEvent } from "./session-event.js";

/** Options of {@link waitForRunOutcome} (those of `TroupeClient.waitForRun`). */
export interface WaitForRunOptions {
  /** Events-stream sequence to start reading at; default 1 (the whole history). */
  readonly fromSequence?: number;
  /** Give up after this long, in ms, with {@link RunTimeoutError}; default: no limit. */
  readonly timeoutMs?: number;
  /** Aborting rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
  /** Called with every event read, once each, in stream order (deltas included). */
  readonly onEvent?: (event: SessionEvent) => void;
}

/** Reads a session's events from a sequence until `signal` aborts (then ends cleanly). */
export type FollowEvents = (
  fromSequence: number,
  signal: AbortSignal,
) => AsyncIterable<SessionEvent>;

/**
 * Follows a session's events until the run of `target` ends.
 *
 * When the session reports the message as a duplicate (`message.duplicate`: an
 * earlier message had the same client message id), it reads again from
 * sequence 1 to find the original's run; `onEvent` still sees each event once.
 *
 * @param follow - reads events (see {@link FollowEvents}).
 * @param sessionId - the session.
 * @param target - `{ clientMessageId }` or `{ runId }`.
 * @param options - see {@link WaitForRunOptions}.
 * @returns the run's outcome.
 * @throws {@link MessageRejectedError} when the session refused the message.
 * @throws {@link RunTimeoutError} when `timeoutMs` passed first.
 * @throws `signal.reason` when `signal` aborted first.
 * @throws {@link ClientClosedError} when the events ended otherwise (client closed).
 * @throws whatever `follow` throws (e.g. `StreamsMissingError`).
 */
export async function waitForRunOutcome(
  follow: FollowEvents,
  sessionId: string,
  target: RunTarget,
  options: WaitForRunOptions = {},
): Promise<RunOutcome> {
  const { signal, timeoutMs } = options;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  let fromSequence = Math.max(1, options.fromSequence ?? 1);
  let tracker = new RunTracker(sessionId, target, { ignoreDuplicates: fromSequence === 1 });
  let lastNotified = 0;
  let lastDeltaNotified = 0;
  try {
    for (;;) {
      let rescan = false;
      for await (const sessionEvent of follow(fromSequence, controller.signal)) {
        const { deltaSequence } = sessionEvent;
        if (deltaSequence !== undefined) {
          // A delta sits between durable events: its own stream's sequence says whether it is new.
          if (deltaSequence > lastDeltaNotified) {
            lastDeltaNotified = deltaSequence;
            options.onEvent?.(sessionEvent);
          }
        } else if (sessionEvent.sequence > lastNotified) {
          lastNotified = sessionEvent.sequence;
          options.onEvent?.(sessionEvent);
        }
        const step = tracker.observe(sessionEvent);
        if (step.kind === "outcome") return step.outcome;
        if (step.kind === "rejected") {
          throw new MessageRejectedError({
            sessionId,
            messageId: step.rejection.messageId,
            rejectionCode: step.rejection.code,
            reason: step.rejection.reason,
            sequence: step.rejection.sequence,
          });
        }
        if (step.kind === "duplicate") {
          rescan = true;
          break;
        }
      }
      if (!rescan) break;
      fromSequence = 1;
      tracker = new RunTracker(sessionId, target, { ignoreDuplicates: true });
    }
    signal?.throwIfAborted();
    if (timedOut && timeoutMs !== undefined) {
      throw new RunTimeoutError(sessionId, timeoutMs, tracker.runId);
    }
    throw new ClientClosedError("waitForRun");
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
