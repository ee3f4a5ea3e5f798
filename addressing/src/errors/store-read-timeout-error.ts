import { TroupeError } from "./troupe-error.js";

/**
 * Deadline of a single JetStream read (a stream's stored message by direct or
 * API get, a stream's info) where no other is configured, in ms: 30 000. A read
 * past it fails with {@link StoreReadTimeoutError}.
 */
export const DEFAULT_STORE_READ_TIMEOUT_MS = 30_000;

/** What kind of JetStream store a read went to. */
export type ReadStore = "object_store" | "kv" | "stream";

/** Options of {@link StoreReadTimeoutError}. */
export interface StoreReadTimeoutErrorOptions {
  /** The kind of store. */
  readonly store: ReadStore;
  /** The bucket or stream, e.g. `TROUPE_MEDIA`, `TROUPE_TRANSCRIPT`. */
  readonly name: string;
  /** What was read: an object name, a key or a subject, when there is one. */
  readonly key?: string | undefined;
  /** The deadline that passed, in ms. */
  readonly timeoutMs: number;
  /** What the server or the client library said, if anything. */
  readonly cause?: unknown;
}

/**
 * A read from a JetStream Object Store, KV bucket or stream did not complete
 * within its deadline (every read that can hang has one). Nothing
 * was changed by the read; trying again may succeed once the server answers,
 * so it is retryable (an effect that meets it is retried durably). Code
 * `timeout`.
 *
 * Shape: `TroupeError` plus `store`, `bucketOrStream`, `key?`, `timeoutMs`.
 *
 * @example
 * ```ts
 * try {
 *   await media.get(ref);
 * } catch (error) {
 *   if (StoreReadTimeoutError.isInstance(error)) console.warn(error.store, error.timeoutMs);
 * }
 * ```
 */
export class StoreReadTimeoutError extends TroupeError {
  /** The kind of store. */
  readonly store: ReadStore;
  /** The bucket or stream. */
  readonly bucketOrStream: string;
  /** The object name, key or subject read, when there is one. */
  readonly key: string | undefined;
  /** The deadline that passed, in ms. */
  readonly timeoutMs: number;

  /** @param options - store, name, key?, timeoutMs, cause?; the message is derived from them. */
  constructor(options: StoreReadTimeoutErrorOptions) {
    const what = options.key === undefined ? "" : ` (${options.key})`;
    super(
      "timeout",
      `A read from ${options.store.replace("_", " ")} ${options.name}${what} did not complete within ${options.timeoutMs} ms.`,
      {
        retryable: true,
        details: {
          store: options.store,
          name: options.name,
          ...(options.key === undefined ? {} : { key: options.key }),
          timeoutMs: options.timeoutMs,
        },
        ...(options.cause === undefined ? {} : { cause: options.cause }),
      },
    );
    this.name = "StoreReadTimeoutError";
    this.store = options.store;
    this.bucketOrStream = options.name;
    this.key = options.key;
    this.timeoutMs = options.timeoutMs;
  }

  /**
   * Whether `value` is a `StoreReadTimeoutError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `timeout` and this name.
   */
  static override isInstance(value: unknown): value is StoreReadTimeoutError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "timeout" &&
      value.name === "StoreReadTimeoutError"
    );
  }
}

/**
 * Whether an error is a client library's own request timeout (nats.js throws
 * `TimeoutError` when a JetStream API or direct-get request gets no answer
 * within the client's `timeout`).
 */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

/**
 * Runs a store read with a deadline: resolves with the read's
 * value, or rejects with {@link StoreReadTimeoutError} when it did not settle
 * within `timeoutMs` (then `onTimeout` runs, to cancel what the read holds: a
 * stream reader, a consumer) or when the client library's own request timed
 * out. Other errors pass through unchanged.
 *
 * @param read - the read, started with the signal it may watch.
 * @param where - what is read and the deadline in ms.
 * @param onTimeout - cancels the read's resources; called at most once.
 */
export async function withReadDeadline<T>(
  read: (signal: AbortSignal) => Promise<T>,
  where: Omit<StoreReadTimeoutErrorOptions, "cause">,
  onTimeout?: () => void,
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StoreReadTimeoutError(where);
      controller.abort(error);
      onTimeout?.();
      reject(error);
    }, where.timeoutMs);
  });
  try {
    return await Promise.race([read(controller.signal), expired]);
  } catch (error) {
    if (isRequestTimeout(error)) throw new StoreReadTimeoutError({ ...where, cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    expired.catch(() => undefined);
  }
}
