import type { TroupeClient } from "@troupe/client";
import type { EventEnvelope, EventType } from "@troupe/protocol";
import {
  describeExpectation,
  meetsExpectation,
  type EventExpectation,
} from "./event-expectation.js";
import { followUntil } from "./follow-until.js";

/** Options of the waits of a test deployment. */
export interface WaitOptions {
  /** How long to wait, in ms; default: the deployment's `timeoutMs` (30 000 ms). */
  readonly timeoutMs?: number;
  /** First events-stream sequence to read; default 1 (the session's whole history). */
  readonly fromSequence?: number;
}

/**
 * A tool call waiting for approval (`tool.approval_requested` with no
 * `tool.approval_settled` yet).
 *
 * Shape: `{ toolCallId, tool, arguments, runId, sessionId, subagentSessionId? }`:
 * `sessionId` is the session the call belongs to; `subagentSessionId` is set
 * (the same id) when that is a subagent's `sub-…` session, so an approval must go
 * through the parent.
 */
export interface PendingApproval {
  readonly toolCallId: string;
  /** The tool's name. */
  readonly tool: string;
  /** The call's arguments, as the model wrote them (parsed JSON). */
  readonly arguments: unknown;
  readonly runId: string;
  readonly sessionId: string;
  readonly subagentSessionId?: string;
}

/**
 * A question the agent asked (`question.asked` with no `question.answered` yet).
 *
 * Shape: `{ questionId, text, choices?, runId, sessionId, subagentSessionId? }`.
 */
export interface PendingQuestion {
  readonly questionId: string;
  /** The question. */
  readonly text: string;
  readonly choices?: readonly string[];
  readonly runId: string;
  readonly sessionId: string;
  readonly subagentSessionId?: string;
}

/**
 * Waits until a session's events hold every expectation, in order (other
 * events may come between them). See `TestDeployment.expectEvents`.
 *
 * @returns the matching events, one per expectation.
 * @throws EventsNotSeenError after `timeoutMs`, naming the first expectation not met.
 */
export async function expectSessionEvents(
  client: TroupeClient,
  sessionId: string,
  expected: readonly EventExpectation[],
  options: WaitOptions & { readonly timeoutMs: number },
): Promise<EventEnvelope<EventType>[]> {
  const matched: EventEnvelope<EventType>[] = [];
  if (expected.length === 0) return matched;
  return await followUntil<EventEnvelope<EventType>[]>(
    client,
    sessionId,
    (event) => {
      const next = expected[matched.length];
      if (next !== undefined && meetsExpectation(event, next)) matched.push(event);
      return matched.length === expected.length ? { done: true, value: matched } : { done: false };
    },
    { ...options, missing: () => expected.slice(matched.length).map(describeExpectation) },
  );
}

/**
 * Waits for a tool call of the session (or of its subagents) that asks for
 * approval and is not settled yet: the oldest one once the reader has caught
 * up with the stored events, else the next one to come.
 *
 * @param toolName - only calls of this tool; default any.
 * @throws EventsNotSeenError after `timeoutMs`.
 */
export async function waitForPendingApproval(
  client: TroupeClient,
  sessionId: string,
  options: WaitOptions & { readonly timeoutMs: number; readonly toolName?: string },
): Promise<PendingApproval> {
  const pending = new Map<string, PendingApproval>();
  return await followUntil<PendingApproval>(
    client,
    sessionId,
    (event, caughtUp) => {
      if (event.type === "tool.approval_requested") {
        const { toolCallId, tool, runId } = event.payload;
        if (options.toolName === undefined || options.toolName === tool) {
          const owner = event.payload.sessionId ?? sessionId;
          pending.set(toolCallId, {
            toolCallId,
            tool,
            arguments: event.payload.arguments,
            runId,
            sessionId: owner,
            ...(owner === sessionId ? {} : { subagentSessionId: owner }),
          });
        }
      } else if (event.type === "tool.approval_settled") {
        pending.delete(event.payload.toolCallId);
      }
      const [first] = pending.values();
      return caughtUp && first !== undefined ? { done: true, value: first } : { done: false };
    },
    {
      ...options,
      missing: () => [
        `a pending tool.approval_requested${options.toolName === undefined ? "" : ` of ${options.toolName}`}`,
      ],
    },
  );
}

/**
 * Waits for a question of the session (or of its subagents) not answered yet:
 * the oldest one once the reader has caught up, else the next one to come.
 *
 * @throws EventsNotSeenError after `timeoutMs`.
 */
export async function waitForPendingQuestion(
  client: TroupeClient,
  sessionId: string,
  options: WaitOptions & { readonly timeoutMs: number },
): Promise<PendingQuestion> {
  const pending = new Map<string, PendingQuestion>();
  return await followUntil<PendingQuestion>(
    client,
    sessionId,
    (event, caughtUp) => {
      if (event.type === "question.asked") {
        const { questionId, text, choices, runId } = event.payload;
        const owner = event.payload.sessionId ?? sessionId;
        pending.set(questionId, {
          questionId,
          text,
          ...(choices === undefined ? {} : { choices }),
          runId,
          sessionId: owner,
          ...(owner === sessionId ? {} : { subagentSessionId: owner }),
        });
      } else if (event.type === "question.answered") {
        pending.delete(event.payload.questionId);
      }
      const [first] = pending.values();
      return caughtUp && first !== undefined ? { done: true, value: first } : { done: false };
    },
    { ...options, missing: () => ["a pending question.asked"] },
  );
}

/**
 * The durable events a session's stream holds now (no `run.delta`), in order.
 *
 * @returns the events; empty for a session with none.
 */
export async function storedSessionEvents(
  client: TroupeClient,
  sessionId: string,
  timeoutMs: number,
): Promise<EventEnvelope<EventType>[]> {
  const count = await client.storedEventCount(sessionId);
  const events: EventEnvelope<EventType>[] = [];
  if (count === 0) return events;
  return await followUntil<EventEnvelope<EventType>[]>(
    client,
    sessionId,
    (event) => {
      events.push(event);
      return events.length >= count ? { done: true, value: events } : { done: false };
    },
    { timeoutMs, missing: () => [`${count - events.length} more stored event(s)`] },
  );
}
