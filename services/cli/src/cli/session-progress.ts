import type { EventEnvelope } from "@troupe/protocol";
import { OpenWaits } from "@troupe/client/internal";

/**
 * A tool call waiting for a human's approval, or a question (`ask_user`)
 * waiting for a human's answer, as `troupe tail --until-idle` reports it.
 *
 * Shape: `{ kind: "approval", toolCallId, tool, runId, subagentSessionId? }` or
 * `{ kind: "question", questionId, text, runId, subagentSessionId? }`;
 * `subagentSessionId` is set when a subagent's session (`sub-…`) owns it (pass
 * it as `--subagent`).
 */
export type HumanWait =
  | {
      readonly kind: "approval";
      readonly toolCallId: string;
      readonly tool: string;
      readonly runId: string;
      readonly subagentSessionId?: string;
    }
  | {
      readonly kind: "question";
      readonly questionId: string;
      readonly text: string;
      readonly runId: string;
      readonly subagentSessionId?: string;
    };

/**
 * Why `troupe tail --until-idle` stopped: the session is idle (nothing runs,
 * nothing more comes unless someone sends), or it is waiting on a human (every
 * event stored so far is read and an approval or a question is still open).
 *
 * Shape: `{ stop: "idle" }` or `{ stop: "waiting_on_human", waits: HumanWait[] }`
 * (`waits` in the order they were asked, at least one).
 */
export type UntilIdleStop =
  | { readonly stop: "idle" }
  | { readonly stop: "waiting_on_human"; readonly waits: readonly HumanWait[] };

/**
 * Exit code of `troupe tail --until-idle` (and of `troupe chat` whose input
 * ended) when it stopped because the session waits on a human: 3. Idle is 0,
 * an error 1 (docs/decisions/0018).
 */
export const WAITING_ON_HUMAN_EXIT_CODE = 3;

/** What {@link SessionProgress.observe} reads of an event: the client's `SessionEvent` fits. */
export interface ObservedEvent {
  /** Stored events not yet delivered (0 = caught up with the stream). */
  readonly pending: number;
  /** Set on a transient `run.delta` (its `pending` counts the deltas stream). */
  readonly deltaSequence?: number;
  /** The event. */
  readonly event: EventEnvelope;
}

/**
 * Follows a session's events in stream order and says when `troupe tail
 * --until-idle` may stop (docs/decisions/0018): when it has caught up (`pending` 0) and
 * either no run is in progress after an event that ends activity
 * (`session.idle`, `session.closed`, a rejected or duplicate message, a command's
 * verdict, an approval settled or a question answered, an accepted command
 * that is not a `user.message`), or a run is in
 * progress and an approval (`tool.approval_requested`) or a question
 * (`question.asked`), its own or a subagent's, is still open.
 *
 * Waits open and close by the rules of `OpenWaits` (`@troupe/client/internal`),
 * and all close with the session's `session.idle` / `session.closed`. Replaying history (`--from 1`) an
 * approval asked and settled long ago never stops it: only the state at the end
 * of what is stored counts. Pure: no IO, no clock.
 */
export class SessionProgress {
  private running = false;
  private readonly waits: OpenWaits;

  /** @param sessionId - the followed session (its own events say when a run starts and the session is idle). */
  constructor(private readonly sessionId: string) {
    this.waits = new OpenWaits(sessionId);
  }

  /**
   * Reads one event.
   *
   * @param observed - the event with its `pending` count.
   * @returns why to stop after this event, or `undefined` to go on.
   */
  observe(observed: ObservedEvent): UntilIdleStop | undefined {
    const { event } = observed;
    const type = event.type;
    const payload = (event.payload ?? {}) as Record<string, unknown>;
    const isSessionEvent = event.meta.actor === `session/${this.sessionId}`;
    if (type === "run.started" && isSessionEvent) this.running = true;
    if ((type === "session.idle" || type === "session.closed") && isSessionEvent) {
      this.running = false;
      this.waits.clear();
    }
    this.waits.observe(event);
    if (observed.pending !== 0) return undefined;
    // Events after which nothing more is coming unless someone sends again
    // (a command's verdict among them): a user.message that was accepted is
    // followed by its run.started.
    const settled =
      type === "session.idle" ||
      type === "session.closed" ||
      type === "message.rejected" ||
      type === "message.duplicate" ||
      type === "command.settled" ||
      // An approval or answer repeated after the run ended: its settlement
      // event comes after the command's verdict.
      type === "tool.approval_settled" ||
      type === "question.answered" ||
      (type === "message.accepted" && payload["type"] !== "user.message");
    if (settled && !this.running) return { stop: "idle" };
    // A delta's `pending` counts the deltas stream, not the events: only a
    // durable event says the stored history is read to its end.
    if (observed.deltaSequence === undefined && this.waits.size > 0) {
      return { stop: "waiting_on_human", waits: this.openWaits() };
    }
    return undefined;
  }

  /** The approvals and questions open now, in the order they were asked. */
  openWaits(): readonly HumanWait[] {
    return this.waits.opening().map((event) => humanWaitOf(event, this.sessionId)!);
  }
}

/**
 * The command a human runs to settle a wait, e.g. `troupe approve s1 call-1`
 * (with `--subagent sub-…` for a subagent's).
 *
 * @param sessionId - the followed session.
 * @param wait - the open approval or question.
 * @returns the command line (a question's ends in `<text>`).
 */
export function settleCommand(sessionId: string, wait: HumanWait): string {
  const flag = wait.subagentSessionId === undefined ? "" : ` --subagent ${wait.subagentSessionId}`;
  return wait.kind === "approval"
    ? `troupe approve ${sessionId} ${wait.toolCallId}${flag}`
    : `troupe answer ${sessionId} ${wait.questionId} <text>${flag}`;
}

/**
 * The wait an approval request (`tool.approval_requested`) or a question
 * (`question.asked`) opens, as {@link SessionProgress} reports it; `undefined`
 * for any other event. `troupe chat` uses it to ask a wait it found in the
 * stored history like one that comes up during a run (docs/decisions/0018).
 *
 * @param event - the event.
 * @param sessionId - the followed session (a payload `sessionId` naming another
 *   one is a subagent's).
 */
export function humanWaitOf(event: EventEnvelope, sessionId: string): HumanWait | undefined {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const owner = payload["sessionId"];
  const via = typeof owner === "string" && owner !== sessionId ? { subagentSessionId: owner } : {};
  const runId = String(payload["runId"]);
  if (event.type === "tool.approval_requested") {
    const toolCallId = String(payload["toolCallId"]);
    return { kind: "approval", toolCallId, tool: String(payload["tool"]), runId, ...via };
  }
  if (event.type === "question.asked") {
    const questionId = String(payload["questionId"]);
    return { kind: "question", questionId, text: String(payload["text"]), runId, ...via };
  }
  return undefined;
}

/**
 * A key that is the same for the same approval or question (kind, owning
 * session, call or question id), e.g. `approval  call-1` or
 * `question sub-1 q-2`.
 */
export function humanWaitKey(wait: HumanWait): string {
  const id = wait.kind === "approval" ? wait.toolCallId : wait.questionId;
  return `${wait.kind} ${wait.subagentSessionId ?? ""} ${id}`;
}
