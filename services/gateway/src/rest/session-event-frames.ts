import type { SessionEvent } from "@troupe/client";
import { SseEventIds, sseFrame, type SseCursor } from "./sse-cursor.js";

/** The first bytes of every events stream: a comment, and the reconnect delay for `EventSource` (ms). */
export const SSE_PREAMBLE = ": troupe session events\nretry: 1000\n\n";
/** The keep-alive comment sent when no event came for `keepAliveMs`. */
export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

/** Options of {@link sessionEventFrames}. */
export interface SessionEventFramesOptions {
  /** Reads the session from a sequence until the signal aborts (`client.events`). */
  readonly events: (fromSequence: number, signal: AbortSignal) => AsyncIterable<SessionEvent>;
  readonly cursor: SseCursor;
  /** Idle time before a keep-alive comment, ms. */
  readonly keepAliveMs: number;
  /** Ends the frames too (e.g. the request's signal). */
  readonly signal?: AbortSignal;
}

/**
 * The SSE text of a session's events, one chunk per event (docs/decisions/0028): the
 * preamble, then an `id:`/`event:`/`data:` frame per event (ids by
 * `SseEventIds`), and a keep-alive comment after each `keepAliveMs` without
 * one. An iterator (not a generator) so that `return()` — the stream was
 * cancelled or cut for a slow reader — stops the underlying consumer at once,
 * even while a `next()` is waiting for an event.
 *
 * @param options - see {@link SessionEventFramesOptions}.
 * @returns the frames; never done by itself (the session may always get more
 *   events), except when the iteration of `events` ends.
 */
export function sessionEventFrames(options: SessionEventFramesOptions): AsyncIterator<string> {
  const stop = new AbortController();
  const signal =
    options.signal === undefined ? stop.signal : AbortSignal.any([stop.signal, options.signal]);
  const ids = new SseEventIds(options.cursor);
  const source = options.events(options.cursor.fromSequence, signal)[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<SessionEvent>> | undefined;
  let preambleSent = false;
  const finished = (): IteratorResult<string> => ({ done: true, value: undefined });
  /** The next event, or "keep-alive" after `keepAliveMs` without one. */
  const nextOrKeepAlive = async (
    next: Promise<IteratorResult<SessionEvent>>,
  ): Promise<IteratorResult<SessionEvent> | "keep-alive"> => {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<"keep-alive">((resolve) => {
      timer = setTimeout(() => resolve("keep-alive"), options.keepAliveMs);
    });
    try {
      return await Promise.race([next, tick]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async next(): Promise<IteratorResult<string>> {
      if (!preambleSent) {
        preambleSent = true;
        return { done: false, value: SSE_PREAMBLE };
      }
      for (;;) {
        if (signal.aborted) return finished();
        pending ??= source.next();
        const next = await nextOrKeepAlive(pending);
        if (next === "keep-alive") return { done: false, value: SSE_KEEP_ALIVE };
        pending = undefined;
        if (next.done === true) return finished();
        const id = ids.next(next.value);
        if (id !== undefined) return { done: false, value: sseFrame(id, next.value) };
      }
    },
    async return(): Promise<IteratorResult<string>> {
      stop.abort();
      void pending?.catch(() => undefined);
      await source.return?.().catch(() => undefined);
      return finished();
    },
  };
}
