import { createParser, type EventSourceMessage } from "eventsource-parser";
import { epochNowMs } from "../turns/turn-driver.js";

/** One server-sent event and when the chunk that completed it arrived. */
export interface TimedServerSentEvent {
  /** The parsed event (`id`, `event` and `data` as sent; `event` undefined when not named). */
  readonly message: EventSourceMessage;
  /** When the chunk completing it was read (Unix ms, fractional; see `epochNowMs`). */
  readonly arrivedAtMs: number;
}

/** Options of {@link readServerSentEvents}. */
export interface ReadServerSentEventsOptions {
  /** Called for each complete event, in order. */
  readonly onEvent: (event: TimedServerSentEvent) => void;
  /** Called once, with the arrival time of the first non-empty chunk of the body. */
  readonly onFirstChunk?: (arrivedAtMs: number) => void;
  /** The clock (Unix ms); default `epochNowMs`. */
  readonly now?: () => number;
}

/**
 * Reads a `text/event-stream` body to its end with `eventsource-parser`, timing
 * each event by the arrival of the chunk that completed it (comments such as
 * keep-alives are skipped; they only count for `onFirstChunk`). Used by the
 * gateway benchmark (issue #16) for `GET /v1/sessions/:id/events` and the UI
 * message stream of `POST /api/chat`.
 *
 * @param body - the response body.
 * @param options - callbacks and clock.
 * @returns once the body ended.
 * @throws the body's read error (e.g. the connection was cut, or the reader
 *   aborted), or what a callback threw (the body is cancelled then).
 */
export async function readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  options: ReadServerSentEventsOptions,
): Promise<void> {
  const now = options.now ?? epochNowMs;
  let chunkArrivedAtMs = 0;
  const parser = createParser({
    onEvent: (message) => options.onEvent({ message, arrivedAtMs: chunkArrivedAtMs }),
  });
  const decoder = new TextDecoder();
  let first = true;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength === 0) continue;
      chunkArrivedAtMs = now();
      if (first) {
        first = false;
        options.onFirstChunk?.(chunkArrivedAtMs);
      }
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    // A callback threw, or the read failed: let go of the connection.
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}
