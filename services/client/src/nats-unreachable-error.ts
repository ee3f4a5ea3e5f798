import { TroupeError } from "@troupe/protocol";
import { redactUrls } from "./redact-url.js";

/**
 * The client could not connect to NATS: no server answered at any of the URLs
 * within the connect timeout. Retryable: start a server (or fix the URL) and
 * connect again. Code `unavailable`.
 *
 * Shape: `TroupeError` plus `urls` (the URLs tried, passwords redacted) and `cause` (the nats.js
 * error, e.g. `ConnectionError: connection refused` or a `TimeoutError`).
 *
 * @example
 * ```ts
 * try {
 *   await TroupeClient.connect({ natsUrl: "nats://127.0.0.1:4222" });
 * } catch (error) {
 *   if (NatsUnreachableError.isInstance(error)) console.error(error.message);
 * }
 * ```
 */
export class NatsUnreachableError extends TroupeError {
  /** The server URLs that were tried. */
  readonly urls: readonly string[];

  /**
   * @param urls - the server URLs that were tried.
   * @param cause - the connect error from nats.js.
   */
  constructor(urls: readonly string[], cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const shown = redactUrls(urls);
    super(
      "unavailable",
      `Cannot reach NATS at ${shown.join(", ")} (${reason}). ` +
        "Start a local Troupe cluster with `npx troupe dev`, " +
        "or point at a running server (CLI: --nats; client: option natsUrl; or TROUPE_NATS_URL).",
      { retryable: true, cause, details: { urls: shown } },
    );
    this.name = "NatsUnreachableError";
    this.urls = shown;
  }

  /**
   * Whether `value` is a `NatsUnreachableError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `unavailable` and this name.
   */
  static override isInstance(value: unknown): value is NatsUnreachableError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "unavailable" &&
      value.name === "NatsUnreachableError"
    );
  }
}
