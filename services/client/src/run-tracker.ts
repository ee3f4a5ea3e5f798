import type { EventEnvelope, EventType } from "@troupe/protocol";
import type { RunOutcome } from "./run-outcome.js";
import type { SessionEvent } from "./session-event.js";
import { userMessageEnvelopeId } from "./session-message.js";

/**
 * Which run to wait for: the one a user message started (by its client message
 * id) or a known run id.
 *
 * Shape: `{ clientMessageId: string } | { runId: string }`.
 */
export type RunTarget =
  | {
      readonly clientMessageId: string;
      /**
       * The message's inbox-stream sequence (`SendReceipt.streamSequence`): a host
       * that cannot decode a message names it `session/<id>:in:<sequence>` in its
       * `message.rejected`, so giving it lets the wait see that rejection too.
       */
      readonly inboxSequence?: number;
    }
  | { readonly runId: string };

/** A `message.rejected` that named the tracked message. */
export interface RunRejection {
  readonly messageId: string;
  readonly code: string;
  readonly reason: string;
  readonly sequence: number;
}

/**
 * What {@link RunTracker.observe} concluded after one event.
 *
 * - `pending`: keep reading;
 * - `outcome`: the run ended;
 * - `rejected`: the session refused the message before it ran;
 * - `duplicate`: the session ignored the message as a repeat of an earlier one
 *   with the same client message id; the original run is found by reading the
 *   session's events from sequence 1.
 */
export type RunTrackerStep =
  | { readonly kind: "pending" }
  | { readonly kind: "outcome"; readonly outcome: RunOutcome }
  | { readonly kind: "rejected"; readonly rejection: RunRejection }
  | { readonly kind: "duplicate"; readonly sequence: number };

/**
 * Follows a session's events to the outcome of one run. Pure: feed it events in
 * stream order with {@link RunTracker.observe}.
 *
 * For a client message id it learns the run from `message.accepted` (its
 * `runId`; under the `steer` policy, the active run the text was handed to) or,
 * when the message was queued (`queued: true`), from the later `run.started`
 * whose `messageId` is the message's envelope id. Only the session's own actors
 * count (`session/<id>` for admission, `run/<id>` for outcomes): a subagent's
 * events, published on the same subjects, carry their own `sub-…` actors and
 * their own run ids.
 */
export class RunTracker {
  private readonly sessionActor: string;
  private readonly runActor: string;
  private readonly clientMessageId: string | undefined;
  private readonly messageIds = new Set<string>();
  private currentRunId: string | undefined;
  private messageAdmitted = false;

  /**
   * @param sessionId - the session.
   * @param target - the run to wait for.
   * @param options - `ignoreDuplicates`: never report `duplicate` (set when
   *   reading from sequence 1 already).
   */
  constructor(
    sessionId: string,
    target: RunTarget,
    private readonly options: { readonly ignoreDuplicates?: boolean } = {},
  ) {
    this.sessionActor = `session/${sessionId}`;
    this.runActor = `run/${sessionId}`;
    if ("runId" in target) {
      this.currentRunId = target.runId;
    } else {
      this.clientMessageId = target.clientMessageId;
      this.messageIds.add(userMessageEnvelopeId(target.clientMessageId));
      if (target.inboxSequence !== undefined) {
        this.messageIds.add(`session/${sessionId}:in:${target.inboxSequence}`);
      }
    }
  }

  /** The run id, once known. */
  get runId(): string | undefined {
    return this.currentRunId;
  }

  /**
   * Whether the session answered the message: a `message.accepted` (queued
   * or not), the `run.started` or a `message.rejected` named it. Always true
   * for a `{ runId }` target.
   */
  get admitted(): boolean {
    return this.messageAdmitted || this.clientMessageId === undefined;
  }

  /**
   * Takes the next event of the session.
   *
   * @param sessionEvent - an event, in stream order.
   * @returns what is known now.
   */
  observe(sessionEvent: Pick<SessionEvent, "event" | "sequence">): RunTrackerStep {
    const { event, sequence } = sessionEvent;
    if (event.meta.actor === this.sessionActor && this.currentRunId === undefined) {
      return this.observeAdmission(event, sequence);
    }
    if (event.meta.actor === this.runActor && this.currentRunId !== undefined) {
      const outcome = outcomeOf(event, sequence);
      if (outcome !== undefined && outcome.runId === this.currentRunId) {
        return { kind: "outcome", outcome };
      }
    }
    return { kind: "pending" };
  }

  private observeAdmission(event: EventEnvelope<EventType>, sequence: number): RunTrackerStep {
    if (event.type === "message.accepted") {
      const { messageId, clientMessageId, runId } = event.payload;
      const ours =
        this.messageIds.has(messageId) ||
        (clientMessageId !== undefined && clientMessageId === this.clientMessageId);
      if (ours) {
        this.messageAdmitted = true;
        this.messageIds.add(messageId);
        if (runId !== undefined) this.currentRunId = runId;
      }
    } else if (event.type === "run.started") {
      const { messageId, runId } = event.payload;
      if (messageId !== undefined && this.messageIds.has(messageId)) {
        this.messageAdmitted = true;
        this.currentRunId = runId;
      }
    } else if (event.type === "message.rejected") {
      const { messageId, code, reason } = event.payload;
      if (messageId !== undefined && this.messageIds.has(messageId)) {
        this.messageAdmitted = true;
        return { kind: "rejected", rejection: { messageId, code, reason, sequence } };
      }
    } else if (event.type === "message.duplicate") {
      const { clientMessageId } = event.payload;
      if (
        this.options.ignoreDuplicates !== true &&
        clientMessageId !== undefined &&
        clientMessageId === this.clientMessageId
      ) {
        return { kind: "duplicate", sequence };
      }
    }
    return { kind: "pending" };
  }
}

/**
 * The outcome an event reports, if it ends a run.
 *
 * @param event - any event.
 * @param sequence - its events-stream sequence.
 * @returns the outcome of `run.completed`, `run.failed` or `run.cancelled`;
 *   undefined for any other type.
 */
export function outcomeOf(
  event: EventEnvelope<EventType>,
  sequence: number,
): RunOutcome | undefined {
  switch (event.type) {
    case "run.completed": {
      const { runId, text, usage } = event.payload;
      return { status: "completed", runId, text, usage, sequence };
    }
    case "run.failed": {
      const { runId, code, message } = event.payload;
      return { status: "failed", runId, code, message, sequence };
    }
    case "run.cancelled": {
      const { runId, partialText, reason, usage } = event.payload;
      return {
        status: "cancelled",
        runId,
        usage,
        sequence,
        ...(partialText === undefined ? {} : { partialText }),
        ...(reason === undefined ? {} : { reason }),
      };
    }
    default:
      return undefined;
  }
}
