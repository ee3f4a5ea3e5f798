import type { RunOutcome } from "../run-outcome.js";
import type { SessionEvent } from "../session-event.js";
import { OpenWaits } from "../open-waits.js";
import { RunTracker } from "../run-tracker.js";
import type { EventEnvelope } from "@troupe/protocol";
import type { RunTaskRef } from "./run-task-id.js";

/**
 * What a run waits for from a human: a tool call's approval
 * (`tool.approval_requested`) or an answer to a question (`ask_user`,
 * `question.asked`). `sessionId` is the session that owns it: the task's own,
 * or a subagent's (`sub-…`), which is then settled through the parent with
 * `subagentSessionId` (docs/decisions/0025).
 *
 * Shape: `{ kind: "approval", toolCallId, tool, arguments, sessionId }` or
 * `{ kind: "question", questionId, text, choices?, sessionId }`.
 */
export type PendingInput =
  | {
      readonly kind: "approval";
      readonly toolCallId: string;
      readonly tool: string;
      readonly arguments: unknown;
      readonly sessionId: string;
    }
  | {
      readonly kind: "question";
      readonly questionId: string;
      readonly text: string;
      readonly choices?: readonly string[];
      readonly sessionId: string;
    };

/** The states of a run task, named as MCP names task states (A2A maps them). */
export type RunTaskState = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * A run task's state as the session's stored events give it (docs/decisions/0025).
 *
 * Shape: `{ state, runId?, answer?, error?, pending?, sequence, createdAtMs?, updatedAtMs? }`:
 * - `state`: `working` until the run ends (also while the message waits to be
 *   admitted or queued behind another run), `input_required` while an approval
 *   or a question of the run (or of its subagents) is open, then `completed`,
 *   `failed` or `cancelled`;
 * - `runId`: once the session started (or accepted) the run;
 * - `answer`: the run's text (`completed`), or the partial text (`cancelled`);
 * - `error`: `{ code, message }` for `failed` (a run failure, or the session
 *   rejecting the message: `code` then is the rejection's, e.g. `run_active`),
 *   and the reason of `cancelled`, when one was given;
 * - `pending`: the oldest open approval or question (`input_required` only);
 * - `sequence`: events-stream sequence of the last durable event read (0: none);
 * - `endedSequence`: for a final state, the sequence of the event that ended the task;
 * - `createdAtMs`: when the session admitted the message (its `message.accepted`,
 *   `run.started` or `message.rejected`), Unix ms; absent before;
 * - `updatedAtMs`: the time of the last event of the task's run read, Unix ms
 *   (equal to `createdAtMs` at first; absent before admission).
 */
export interface RunTaskStatus {
  readonly state: RunTaskState;
  readonly runId?: string;
  readonly answer?: string;
  readonly error?: { readonly code: string; readonly message: string };
  readonly pending?: PendingInput;
  readonly sequence: number;
  readonly endedSequence?: number;
  readonly createdAtMs?: number;
  readonly updatedAtMs?: number;
}

/** What {@link RunTaskTracker.observe} reads of an event; the client's `SessionEvent` fits. */
export interface TrackedEvent {
  readonly sequence: number;
  /** Set on a transient `run.delta`. */
  readonly deltaSequence?: number;
  readonly event: EventEnvelope;
}

/**
 * Derives a run task's status from the session's events, fed in stream order.
 * Pure: no IO, no clock, so the same events always give the same status, in
 * any process (task state lives in the actors).
 *
 * The run is found as `TroupeClient.waitForRun` finds it: the session's
 * `message.accepted` naming the message (`cm:<clientMessageId>` or its client
 * message id) with a `runId`, or for a queued message the `run.started` naming
 * it; a `message.rejected` naming it fails the task. Its end is the run actor's
 * `run.completed` / `run.failed` / `run.cancelled` with that run id. Between
 * start and end, every approval or question asked (by the run or its
 * subagents: a session runs one run at a time) is open by the rules of
 * {@link OpenWaits}.
 */
export class RunTaskTracker {
  /** Finds the run and its outcome exactly as `TroupeClient.waitForRun` does. */
  private readonly run: RunTracker;
  private ended: RunTaskStatus | undefined;
  private sequence = 0;
  private createdAtMs: number | undefined;
  private updatedAtMs: number | undefined;
  private readonly waits: OpenWaits;

  /** @param ref - the task's session and client message id. */
  constructor(private readonly ref: RunTaskRef) {
    this.run = new RunTracker(
      ref.sessionId,
      { clientMessageId: ref.clientMessageId },
      { ignoreDuplicates: true },
    );
    this.waits = new OpenWaits(ref.sessionId);
  }

  /**
   * Reads the next event of the session (durable or delta, in stream order).
   *
   * @param tracked - the event and its sequence.
   * @returns the status after it.
   */
  observe(tracked: TrackedEvent): RunTaskStatus {
    if (tracked.deltaSequence === undefined) this.sequence = tracked.sequence;
    if (this.ended !== undefined) return this.status();
    const { event } = tracked;
    const known = this.run.runId !== undefined;
    const wasAdmitted = this.run.admitted;
    const step = this.run.observe(tracked as Pick<SessionEvent, "event" | "sequence">);
    if (!known) {
      // An event that named the message: its admission, or the run.started of a queued one.
      const named =
        (this.run.admitted && !wasAdmitted) ||
        this.run.runId !== undefined ||
        step.kind !== "pending";
      if (named) this.touch(event);
      if (step.kind === "rejected") {
        const { code, reason } = step.rejection;
        this.ended = {
          state: "failed",
          error: { code, message: reason },
          sequence: 0,
          endedSequence: tracked.sequence,
        };
      }
      return this.status();
    }
    this.touch(event);
    if (step.kind === "outcome") {
      this.ended = { ...endedStatus(step.outcome), endedSequence: tracked.sequence };
    }
    this.waits.observe(event);
    return this.status();
  }

  /** The status after the events read so far (`working`, sequence 0, before any). */
  status(): RunTaskStatus {
    const sequence = this.sequence;
    const times =
      this.createdAtMs === undefined
        ? {}
        : { createdAtMs: this.createdAtMs, updatedAtMs: this.updatedAtMs ?? this.createdAtMs };
    if (this.ended !== undefined) return { ...this.ended, sequence, ...times };
    const runId = this.run.runId === undefined ? {} : { runId: this.run.runId };
    const opened = this.waits.opening()[0];
    const pending = opened === undefined ? undefined : this.pendingOf(opened);
    if (pending !== undefined) {
      return { state: "input_required", ...runId, pending, sequence, ...times };
    }
    return { state: "working", ...runId, sequence, ...times };
  }

  private touch(event: EventEnvelope): void {
    const timeMs = event.meta.timestampMs;
    if (typeof timeMs !== "number") return;
    this.createdAtMs ??= timeMs;
    this.updatedAtMs = Math.max(this.updatedAtMs ?? timeMs, timeMs);
  }

  /** The pending input an approval request or a question opens. */
  private pendingOf(event: EventEnvelope): PendingInput {
    const payload = (event.payload ?? {}) as Record<string, unknown>;
    const owner =
      typeof payload["sessionId"] === "string" ? payload["sessionId"] : this.ref.sessionId;
    if (event.type === "tool.approval_requested") {
      return {
        kind: "approval",
        toolCallId: String(payload["toolCallId"]),
        tool: String(payload["tool"]),
        arguments: payload["arguments"],
        sessionId: owner,
      };
    }
    const choices = payload["choices"];
    return {
      kind: "question",
      questionId: String(payload["questionId"]),
      text: String(payload["text"]),
      ...(Array.isArray(choices) ? { choices: choices.map(String) } : {}),
      sessionId: owner,
    };
  }
}

/** A run task's final status from the run's outcome (`sequence` is set by the caller). */
function endedStatus(outcome: RunOutcome): RunTaskStatus {
  const { runId } = outcome;
  if (outcome.status === "completed") {
    return { state: "completed", runId, answer: outcome.text, sequence: 0 };
  }
  if (outcome.status === "failed") {
    return {
      state: "failed",
      runId,
      error: { code: outcome.code, message: outcome.message },
      sequence: 0,
    };
  }
  const partial = outcome.partialText;
  return {
    state: "cancelled",
    runId,
    ...(partial !== undefined && partial !== "" ? { answer: partial } : {}),
    ...(outcome.reason === undefined
      ? {}
      : { error: { code: "cancelled", message: outcome.reason } }),
    sequence: 0,
  };
}

/**
 * Whether a state is final: `completed`, `failed` or `cancelled`.
 *
 * @param state - a run task state.
 */
export function isFinalRunTaskState(state: RunTaskState): boolean {
  return state === "completed" || state === "failed" || state === "cancelled";
}
