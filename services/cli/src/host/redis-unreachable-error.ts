import { redactUrl } from "@troupe/client";
import { TroupeError } from "@troupe/protocol";

/**
 * No Redis server answered at the URL, or it refused the credentials or the
 * TLS handshake. Retryable: start one (or fix the URL) and try again. Code
 * `unavailable`; `url` is the URL tried (or a description of the cluster /
 * sentinel settings), its password redacted (issue #17); `cause` the ioredis
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
    super(
      "unavailable",
      `Cannot reach Redis at ${shown} (${reason}). ` +
        "Start a local Troupe cluster with `npx troupe dev`, or a bare server with `redis-server`, " +
        "or give the URL with --redis or TROUPE_REDIS_URL.",
      { retryable: true, cause, details: { url: shown } },
    );
    this.name = "RedisUnreachableError";
    this.url = shown;
  }
}
