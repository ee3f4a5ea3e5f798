import type { SessionEvent } from "@troupe/client";
import { OpenWaits } from "@troupe/client/internal";
import type { OpenQuestion, PendingApproval, SessionSummary } from "../http/gateway-context.js";

const runEnds = new Set(["run.completed", "run.failed", "run.cancelled"]);

/**
 * What the gateway knows of one session from its durable events, read in
 * stream order (docs/decisions/0028): its state, agent, last run and run in progress,
 * its latest event, and its open approvals and questions by the rules of
 * `OpenWaits` (`@troupe/client/internal`, shared with the CLI), all closed by
 * the session's own `session.idle` / `session.closed`.
 *
 * - `running`: the session's own run actor (`run/<sessionId>`) published a
 *   `run.started` and not yet its end (a subagent's run, `run/sub-…`, on the
 *   same subjects, does not count);
 * - `closed`: the session published `session.closed` (final);
 * - `idle` otherwise.
 *
 * Pure: no IO, no clock. Memory: O(open waits).
 */
export class SessionRecord {
  readonly #waits: OpenWaits;
  /** Stream sequence of each open wait's opening event, by envelope id. */
  readonly #openedAt = new Map<string, number>();
  #closed = false;
  #agent: string | undefined;
  #lastRunId: string | undefined;
  #runInProgress: { runId: string; sequence: number } | undefined;
  #lastSequence = 0;
  #lastEventAtMs = 0;

  /** @param sessionId - the session whose subjects carry the events. */
  constructor(readonly sessionId: string) {
    this.#waits = new OpenWaits(sessionId);
  }

  /** How many approvals and questions are open. */
  get openWaits(): number {
    return this.#waits.size;
  }

  /** Events-stream sequence of the latest event read. */
  get lastSequence(): number {
    return this.#lastSequence;
  }

  /**
   * Reads the session's next durable event.
   *
   * @param tracked - the event and its events-stream sequence.
   */
  observe(tracked: SessionEvent): void {
    const { event } = tracked;
    if (tracked.deltaSequence !== undefined || event.meta.transient === true) return;
    const payload = (event.payload ?? {}) as Record<string, unknown>;
    const own = event.meta.actor === `session/${this.sessionId}`;
    const ownRun = event.meta.actor === `run/${this.sessionId}`;
    this.#lastSequence = Math.max(this.#lastSequence, tracked.sequence);
    this.#lastEventAtMs = Math.max(this.#lastEventAtMs, event.meta.timestampMs);
    if (own && event.type === "session.created" && typeof payload["agent"] === "string") {
      this.#agent = payload["agent"];
    }
    if (own && event.type === "run.started" && typeof payload["runId"] === "string") {
      this.#runInProgress = { runId: payload["runId"], sequence: tracked.sequence };
      this.#lastRunId = payload["runId"];
      if (typeof payload["agent"] === "string") this.#agent = payload["agent"];
    }
    if (ownRun && runEnds.has(event.type) && payload["runId"] === this.#runInProgress?.runId) {
      this.#runInProgress = undefined;
    }
    if (own && (event.type === "session.idle" || event.type === "session.closed")) {
      if (event.type === "session.closed") this.#closed = true;
      if (typeof payload["lastRunId"] === "string") this.#lastRunId = payload["lastRunId"];
      this.#runInProgress = undefined;
      this.#waits.clear();
    }
    this.#waits.observe(event);
    if (event.type === "tool.approval_requested" || event.type === "question.asked") {
      this.#openedAt.set(event.id, tracked.sequence);
    }
    if (this.#openedAt.size > this.#waits.size) {
      const open = new Set(this.#waits.opening().map((opened) => opened.id));
      for (const id of this.#openedAt.keys()) if (!open.has(id)) this.#openedAt.delete(id);
    }
  }

  /** The session's summary after the events read so far. */
  summary(): SessionSummary {
    const opening = this.#waits.opening();
    const approvals = opening.filter((opened) => opened.type === "tool.approval_requested");
    return {
      sessionId: this.sessionId,
      state: this.#closed ? "closed" : this.#runInProgress === undefined ? "idle" : "running",
      ...(this.#agent === undefined ? {} : { agent: this.#agent }),
      ...(this.#lastRunId === undefined ? {} : { lastRunId: this.#lastRunId }),
      ...(this.#runInProgress === undefined || this.#closed
        ? {}
        : { runInProgress: { ...this.#runInProgress } }),
      lastEventAt: new Date(this.#lastEventAtMs).toISOString(),
      lastSequence: this.#lastSequence,
      pendingApprovals: approvals.length,
      openQuestions: opening.length - approvals.length,
    };
  }

  /** Its pending approvals, oldest first. */
  approvals(): PendingApproval[] {
    return this.#waits.opening().flatMap((opened) => {
      if (opened.type !== "tool.approval_requested") return [];
      const payload = opened.payload as Record<string, unknown>;
      return [
        {
          sessionId: this.sessionId,
          ownerSessionId: stringOr(payload["sessionId"], this.sessionId),
          toolCallId: String(payload["toolCallId"]),
          tool: String(payload["tool"]),
          arguments: payload["arguments"] ?? null,
          runId: String(payload["runId"]),
          sequence: this.#openedAt.get(opened.id) ?? 0,
          requestedAt: new Date(opened.meta.timestampMs).toISOString(),
        },
      ];
    });
  }

  /** Its open questions, oldest first. */
  questions(): OpenQuestion[] {
    return this.#waits.opening().flatMap((opened) => {
      if (opened.type !== "question.asked") return [];
      const payload = opened.payload as Record<string, unknown>;
      const choices = payload["choices"];
      return [
        {
          sessionId: this.sessionId,
          ownerSessionId: stringOr(payload["sessionId"], this.sessionId),
          questionId: String(payload["questionId"]),
          runId: String(payload["runId"]),
          text: String(payload["text"]),
          ...(Array.isArray(choices) ? { choices: choices.map(String) } : {}),
          sequence: this.#openedAt.get(opened.id) ?? 0,
          askedAt: new Date(opened.meta.timestampMs).toISOString(),
        },
      ];
    });
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}
