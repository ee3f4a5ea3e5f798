import type { SessionEvent } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { SSE_KEEP_ALIVE, SSE_PREAMBLE, sessionEventFrames } from "./session-event-frames.js";

const durable = (sequence: number): SessionEvent =>
  ({
    sequence,
    subject: "troupe.session.s1.events.session.idle",
    pending: 0,
    event: {
      v: 1,
      id: `e${sequence}`,
      type: "session.idle",
      payload: { sessionId: "s1" },
      meta: { actor: "session/s1", seq: sequence, timestampMs: 0 },
    },
  }) as unknown as SessionEvent;

/** Events given one by one through `push`, until the signal aborts. */
function manualEvents() {
  const waiting: ((event: SessionEvent) => void)[] = [];
  let started: { fromSequence: number; signal: AbortSignal } | undefined;
  return {
    push: (event: SessionEvent) => waiting.shift()?.(event),
    started: () => started,
    events: (fromSequence: number, signal: AbortSignal): AsyncIterable<SessionEvent> => {
      started = { fromSequence, signal };
      return {
        [Symbol.asyncIterator]: () => ({
          next: () =>
            new Promise<IteratorResult<SessionEvent>>((resolve) => {
              if (signal.aborted) return resolve({ done: true, value: undefined });
              signal.addEventListener("abort", () => resolve({ done: true, value: undefined }));
              waiting.push((event) => resolve({ done: false, value: event }));
            }),
        }),
      };
    },
  };
}

describe("sessionEventFrames", () => {
  it("sends the preamble, an event frame, a keep-alive comment when idle, and stops the source on return()", async () => {
    const source = manualEvents();
    const frames = sessionEventFrames({
      events: source.events,
      cursor: { fromSequence: 5, skipTransients: 0 },
      keepAliveMs: 20,
    });
    expect(await frames.next()).toEqual({ done: false, value: SSE_PREAMBLE });
    const next = frames.next();
    source.push(durable(5));
    expect((await next).value).toMatch(/^id: 5\nevent: session.idle\ndata: \{/);
    expect(source.started()?.fromSequence).toBe(5);
    expect(await frames.next()).toEqual({ done: false, value: SSE_KEEP_ALIVE });
    expect(await frames.return!()).toEqual({ done: true, value: undefined });
    expect(source.started()?.signal.aborted).toBe(true);
  });
});
