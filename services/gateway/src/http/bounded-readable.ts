/** Chunks queued for a slow reader by default before the source is no longer read: 256. */
export const DEFAULT_STREAM_BUFFER_CHUNKS = 256;
/** How long by default the queue may stay full before the stream is cut: 15 000 ms. */
export const DEFAULT_STALL_TIMEOUT_MS = 15_000;

/** Options of {@link boundedReadable}. */
export interface BoundedReadableOptions {
  /** Chunks queued for a reader that is behind; default {@link DEFAULT_STREAM_BUFFER_CHUNKS}. */
  readonly bufferChunks?: number;
  /** Ms the queue may stay full before the stream is cut; default {@link DEFAULT_STALL_TIMEOUT_MS}. */
  readonly stallTimeoutMs?: number;
  /** Told once when the stream is cut for a slow reader. */
  readonly onStall?: () => void;
  /** Called once when the stream ends for any reason (source done, cancel, cut). */
  readonly onEnd?: () => void;
}

/** The error a stream cut for a slow reader ends with. */
export class SlowReaderError extends Error {
  override readonly name = "SlowReaderError";
}

/**
 * A pull-based `ReadableStream` over an async iterator with a bounded queue
 * (backpressure). The source is read only while the queue has
 * room, so a slow HTTP client never makes the gateway buffer without bound;
 * the source (a JetStream ordered consumer) waits instead, and nothing
 * upstream — hosts, other clients — is held up. When the queue stays full
 * for `stallTimeoutMs`, the stream errors with {@link SlowReaderError}: the
 * HTTP response is cut and the client resumes from its cursor (SSE
 * `Last-Event-ID`, or the UI stream's resume).
 *
 * @param source - the items, in order; `return()` is called when the stream ends early.
 * @param options - see {@link BoundedReadableOptions}.
 * @returns a stream of the items.
 */
export function boundedReadable<T>(
  source: AsyncIterator<T>,
  options: BoundedReadableOptions = {},
): ReadableStream<T> {
  const bufferChunks = options.bufferChunks ?? DEFAULT_STREAM_BUFFER_CHUNKS;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  let watchdog: NodeJS.Timeout | undefined;
  let fullSince: number | undefined;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (watchdog !== undefined) clearInterval(watchdog);
    void source.return?.().catch(() => undefined);
    options.onEnd?.();
  };
  return new ReadableStream<T>(
    {
      start(controller) {
        watchdog = setInterval(
          () => {
            const full = (controller.desiredSize ?? 1) <= 0;
            if (!full) {
              fullSince = undefined;
              return;
            }
            fullSince ??= Date.now();
            if (Date.now() - fullSince >= stallTimeoutMs) {
              options.onStall?.();
              controller.error(
                new SlowReaderError(
                  `The reader fell ${bufferChunks} chunks behind for ${stallTimeoutMs} ms.`,
                ),
              );
              end();
            }
          },
          Math.max(10, Math.min(1_000, stallTimeoutMs / 4)),
        );
        watchdog.unref();
      },
      async pull(controller) {
        try {
          const next = await source.next();
          if (ended) return;
          if (next.done === true) {
            controller.close();
            end();
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          if (ended) return;
          controller.error(error);
          end();
        }
      },
      cancel() {
        end();
      },
    },
    new CountQueuingStrategy({ highWaterMark: bufferChunks }),
  );
}
