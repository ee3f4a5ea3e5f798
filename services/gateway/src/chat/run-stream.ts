import type { SessionEvent, TroupeClient } from "@troupe/client";
import { RunTracker } from "@troupe/client/internal";
import { isRequestTimeout, TroupeError } from "@troupe/protocol";
import type { UIMessageChunk } from "ai";
import { GatewayError } from "../http/gateway-error.js";
import { RunStreamTranslator } from "../ui-stream/run-stream-translator.js";

/** How long a chat POST waits for the session to admit its message before it answers anyway: 10 000 ms. */
export const ADMISSION_WAIT_MS = 10_000;

/** A stream that answered no approval (a new message's, a resume). */
const NO_ANSWERS: ReadonlySet<string> = new Set();

/** The `finish` a stream ends with when its run waits for approvals only. */
const AWAITING_APPROVALS: UIMessageChunk = { type: "finish", finishReason: "tool-calls" };

/**
 * Whether a live stream ends at this event: the run tree waits for approvals
 * only and the reader has caught up with the stored events (so a replayed
 * approval that was settled later never ends a stream). A continuation also
 * waits until the session settled every approval its POST answered: its
 * approve or deny may be processed seconds later (after a host failover, say),
 * and ending before would show that client nothing of the rest of the run.
 */
function pausesAt(
  translator: RunStreamTranslator,
  sessionEvent: SessionEvent,
  answered: ReadonlySet<string>,
): boolean {
  if (!translator.awaitingApprovalsOnly) return false;
  if (sessionEvent.deltaSequence !== undefined || sessionEvent.pending !== 0) return false;
  const awaiting = translator.awaitingApprovalIds;
  return ![...answered].some((id) => awaiting.has(id));
}

/**
 * The chunks of run `runId` of a session, from its `run.started` on
 * (docs/decisions/0027): what `GET /api/chat/:id/stream` (resume) and an approval POST
 * (continuation) send. Ends at the run's end, or when it waits for approvals
 * only (a `finish` with reason `tool-calls`), or when `signal` aborts.
 *
 * @param options.startHint - events-stream sequence of the run's `run.started`
 *   if known; a wrong hint costs a read from sequence 1.
 * @param options.after - continuation: send nothing until the run tree
 *   waited for approvals only with every one of these approval ids requested
 *   (the point where the client's previous stream ended), then a `start` and
 *   what follows.
 */
export async function* runChunks(
  client: TroupeClient,
  options: {
    readonly sessionId: string;
    readonly runId: string;
    readonly startHint?: number | undefined;
    readonly after?: ReadonlySet<string>;
    readonly signal: AbortSignal;
  },
): AsyncGenerator<UIMessageChunk> {
  const hinted = options.startHint !== undefined;
  let fromSequence = options.startHint ?? 1;
  for (;;) {
    const translator = new RunStreamTranslator(options.sessionId, { runId: options.runId });
    let emitting = options.after === undefined;
    let restart = false;
    for await (const sessionEvent of client.events(options.sessionId, {
      fromSequence,
      signal: options.signal,
    })) {
      const chunks = translator.push(sessionEvent);
      if (translator.runId === undefined) {
        if (hinted && fromSequence > 1 && sessionEvent.deltaSequence === undefined) {
          restart = true;
          break;
        }
        continue;
      }
      if (!emitting) {
        const after = options.after ?? new Set<string>();
        if (translator.ended) {
          yield translator.startChunk()!;
          yield* chunks.filter((chunk) => ["finish", "error", "abort"].includes(chunk.type));
          return;
        }
        if (
          translator.awaitingApprovalsOnly &&
          [...after].every((id) => translator.requestedApprovalIds.has(id))
        ) {
          emitting = true;
          yield translator.startChunk()!;
        }
        continue;
      }
      yield* chunks;
      if (translator.ended) return;
      if (pausesAt(translator, sessionEvent, options.after ?? NO_ANSWERS)) {
        yield AWAITING_APPROVALS;
        return;
      }
    }
    if (!restart) return;
    fromSequence = 1;
  }
}

/**
 * Sends a user message and returns the chunks of the run it starts (or, for
 * a message the session saw before — a retried POST —, of the run the first
 * copy started). Waits for the session to admit the message (at most
 * {@link ADMISSION_WAIT_MS}) so a refusal is an HTTP error, not a stream.
 *
 * @throws GatewayError 400 for a message the session's schema refuses, 413
 *   over the message size limit, 409 `conflict` when the session refused it
 *   (e.g. a closed session), 503 when no host created the streams.
 */
export async function sendAndFollow(
  client: TroupeClient,
  options: {
    readonly sessionId: string;
    readonly text: string;
    readonly clientMessageId: string;
    readonly signal: AbortSignal;
  },
): Promise<AsyncGenerator<UIMessageChunk>> {
  const { sessionId, clientMessageId, signal } = options;
  let fromSequence: number;
  let receipt;
  try {
    fromSequence = (await client.lastSequence()) + 1;
    receipt = await client.send(sessionId, { text: options.text, clientMessageId });
  } catch (error) {
    throw gatewayErrorOf(error);
  }
  let duplicate = receipt.duplicate;
  for (;;) {
    const tracker = new RunTracker(
      sessionId,
      { clientMessageId, inboxSequence: receipt.streamSequence },
      { ignoreDuplicates: duplicate },
    );
    const events = client.events(sessionId, { fromSequence: duplicate ? 1 : fromSequence, signal });
    const iterator = events[Symbol.asyncIterator]();
    const buffered: SessionEvent[] = [];
    let pending: Promise<IteratorResult<SessionEvent>> | undefined;
    const deadline = Date.now() + ADMISSION_WAIT_MS;
    let again = false;
    while (!tracker.admitted) {
      pending ??= iterator.next();
      const next = await raceTimeout(pending, deadline - Date.now());
      if (next === "timeout") break;
      pending = undefined;
      if (next.done === true) break;
      buffered.push(next.value);
      const step = tracker.observe(next.value);
      if (step.kind === "rejected") {
        await iterator.return?.();
        throw new GatewayError(
          409,
          "conflict",
          `The session refused the message (${step.rejection.code}): ${step.rejection.reason}`,
        );
      }
      if (step.kind === "duplicate") {
        await iterator.return?.();
        duplicate = true;
        again = true;
        break;
      }
    }
    if (again) continue;
    return followAdmitted(sessionId, tracker, buffered, pending, iterator);
  }
}

async function* followAdmitted(
  sessionId: string,
  tracker: RunTracker,
  buffered: SessionEvent[],
  pending: Promise<IteratorResult<SessionEvent>> | undefined,
  iterator: AsyncIterator<SessionEvent>,
): AsyncGenerator<UIMessageChunk> {
  let translator: RunStreamTranslator | undefined;
  const take = (sessionEvent: SessionEvent): UIMessageChunk[] => {
    if (tracker.runId === undefined) tracker.observe(sessionEvent);
    if (translator === undefined && tracker.runId !== undefined) {
      translator = new RunStreamTranslator(sessionId, { runId: tracker.runId });
    }
    return translator?.push(sessionEvent) ?? [];
  };
  try {
    for (const sessionEvent of buffered) yield* take(sessionEvent);
    for (;;) {
      const next = await (pending ?? iterator.next());
      pending = undefined;
      if (next.done === true) return;
      yield* take(next.value);
      if (translator?.ended === true) return;
      if (translator !== undefined && pausesAt(translator, next.value, NO_ANSWERS)) {
        yield AWAITING_APPROVALS;
        return;
      }
    }
  } finally {
    await iterator.return?.();
  }
}

async function raceTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | "timeout"> {
  if (timeoutMs <= 0) return "timeout";
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The HTTP error of a client error: invalid ids and payloads 400
 * `invalid_request`, a message over the size limit 413 `body_too_large`, no
 * streams (no host yet) 503 `unavailable`, NATS not answering in time (a
 * read's `StoreReadTimeoutError`, a publish whose acknowledgement timed out)
 * 503 `unavailable`, which a client may retry; anything else is rethrown (500).
 */
export function gatewayErrorOf(error: unknown): unknown {
  if (isRequestTimeout(error)) {
    return new GatewayError(503, "unavailable", "NATS did not answer in time; try again.");
  }
  if (!TroupeError.isInstance(error)) return error;
  switch (error.code) {
    case "invalid_address":
    case "decode_failed":
      return new GatewayError(400, "invalid_request", error.message);
    case "payload_too_large":
      return new GatewayError(413, "body_too_large", error.message);
    case "unavailable":
    case "timeout":
      return new GatewayError(503, "unavailable", error.message);
    default:
      return error;
  }
}
