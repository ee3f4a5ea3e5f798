import { TroupeError } from "@troupe/protocol";

/**
 * No Redis server answered at the URL. Retryable: start one (or fix the URL)
 * and try again. Code `unavailable`; `url` is the URL tried, `cause` the
 * ioredis error.
 */
export class RedisUnreachableError extends TroupeError {
  /**
   * @param url - the Redis URL tried.
   * @param cause - the connect error from ioredis.
   */
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "unavailable",
      `Cannot reach Redis at ${url} (${reason}). ` +
        "Start a local Troupe cluster with `npx troupe dev`, or a bare server with `redis-server`, " +
        "or give the URL with --redis or TROUPE_REDIS_URL.",
      { retryable: true, cause, details: { url } },
    );
    this.name = "RedisUnreachableError";
  }
}
