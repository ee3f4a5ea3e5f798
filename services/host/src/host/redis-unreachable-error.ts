import { redactUrl } from "@troupe/client";
import { TroupeError } from "@troupe/protocol";

/**
 * No Redis server answered at the URL, or it refused the credentials or the
 * TLS handshake. Retryable: start one (or fix the URL) and try again. Code
 * `unavailable`; `url` is the URL tried (or a description of the cluster /
 * sentinel settings), its password redacted (docs/decisions/0033); `cause` the ioredis
 * error (e.g. `WRONGPASS`, `NOAUTH`, a TLS error).
 */
export class RedisUnreachableError extends TroupeError {
  /**
   * @param url - the Redis URL tried.
   * @param cause - the connect error from ioredis.
   */
  readonly url: string;

  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const shown = redactUrl(url);
    // The server answered but refused the credentials (ACL): starting a server
    // is the wrong advice then (found by a new user's trial).
    const refused = /\b(WRONGPASS|NOAUTH|NOPERM)\b/.test(reason);
    super(
      "unavailable",
      refused
        ? `Redis at ${shown} refused the credentials (${reason}). ` +
            "Give the user and password with TROUPE_REDIS_USERNAME and TROUPE_REDIS_PASSWORD, " +
            "or in the file of --config (redis.username, redis.password)."
        : `Cannot reach Redis at ${shown} (${reason}). ` +
            "Start a local Troupe cluster with `npx troupe dev`, or a bare server with `redis-server`, " +
            "or give the URL with --redis or TROUPE_REDIS_URL.",
      { retryable: true, cause, details: { url: shown } },
    );
    this.name = "RedisUnreachableError";
    this.url = shown;
  }

  /**
   * Whether `value` is a `RedisUnreachableError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `unavailable` and this name.
   */
  static override isInstance(value: unknown): value is RedisUnreachableError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "unavailable" &&
      value.name === "RedisUnreachableError"
    );
  }
}
