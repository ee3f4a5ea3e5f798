import type { EventEnvelope } from "@troupe/protocol";

/** Events that end a tool call (of the same tool-call actor): its approval or question is moot. */
const callEnds = new Set([
  "tool.completed",
  "tool.failed",
  "tool.outcome_unknown",
  "tool.finished",
]);
/** Events that end a run: every approval or question of that run is moot. */
const runEnds = new Set(["run.completed", "run.failed", "run.cancelled"]);

/**
 * The approvals (`tool.approval_requested`) and questions (`question.asked`) of
 * a session that are still open, its own and its subagents', each kept as the
 * event that opened it, in the order they were asked. One set of closing rules
 * for `troupe tail --until-idle`, `troupe chat`, the run tasks of `troupe
 * mcp` / `troupe a2a` and the HTTP gateway's fleet index, exported from `@troupe/client/internal`:
 *
 * - an approval closes with its `tool.approval_settled`, its call's
 *   `tool.started` or its call's end (`tool.completed`, `tool.failed`, …);
 * - a question closes with its `question.answered` or its call's end
 *   (`ask_user` starts before it asks, so `tool.started` does not close it);
 * - both close with the end of their run (`run.completed` / `run.failed` /
 *   `run.cancelled` with their `runId`, unless another session's run actor
 *   published it).
 *
 * Waits are keyed by the emitting actor (`meta.actor`, the tool call) and the
 * call or question id, so a subagent's call with the same id as a parent's is
 * told apart. Pure: no IO, no clock.
 */
export class OpenWaits {
  readonly #waits = new Map<string, EventEnvelope>();

  /** @param sessionId - the followed session (owner of a wait whose payload names none). */
  constructor(private readonly sessionId: string) {}

  /** How many waits are open. */
  get size(): number {
    return this.#waits.size;
  }

  /** The events that opened the waits still open, in the order they were asked. */
  opening(): EventEnvelope[] {
    return [...this.#waits.values()];
  }

  /** Closes every wait (the session went idle or closed, the run ended). */
  clear(): void {
    this.#waits.clear();
  }

  /**
   * Reads the next event of the session, in stream order.
   *
   * @param event - any event.
   */
  observe(event: EventEnvelope): void {
    const payload = (event.payload ?? {}) as Record<string, unknown>;
    const key = (id: unknown) => `${event.meta.actor} ${String(id)}`;
    switch (event.type) {
      case "tool.approval_requested":
        this.#waits.set(key(payload["toolCallId"]), event);
        return;
      case "question.asked":
        this.#waits.set(`${key(payload["questionId"])} question`, event);
        return;
      case "tool.approval_settled":
      case "tool.started":
        this.#waits.delete(key(payload["toolCallId"]));
        return;
      case "question.answered":
        this.#waits.delete(`${key(payload["questionId"])} question`);
        return;
      default:
        if (callEnds.has(event.type)) {
          this.#waits.delete(key(payload["toolCallId"]));
          this.#waits.delete(`${key(payload["toolCallId"])} question`);
        } else if (runEnds.has(event.type)) {
          for (const [waitKey, opened] of this.#waits) {
            const asked = (opened.payload ?? {}) as Record<string, unknown>;
            const owner =
              typeof asked["sessionId"] === "string" ? asked["sessionId"] : this.sessionId;
            // Another session's run with the same run id (a subagent's `r1`
            // beside the parent's) ends nothing here.
            const otherRun =
              event.meta.actor.startsWith("run/") && event.meta.actor !== `run/${owner}`;
            if (asked["runId"] === payload["runId"] && !otherRun) {
              this.#waits.delete(waitKey);
            }
          }
        }
    }
  }
}
