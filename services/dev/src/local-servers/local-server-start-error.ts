const brand = Symbol.for("troupe.LocalServerStartError");

/**
 * Thrown when a local `nats-server` or `redis-server` process was spawned but did
 * not become ready: it exited, or it was not healthy within the start timeout.
 *
 * Shape: `{ code: "local_server_start_failed", retryable: true, serverName, outputTail }`.
 * Retryable: the usual causes (a port taken between choosing and binding it, a slow
 * disk) are transient. The process has been stopped and its data folder removed
 * by the time this is thrown.
 */
export class LocalServerStartError extends Error {
  /** Stable machine-readable code. */
  readonly code = "local_server_start_failed";
  /** A second attempt may succeed. */
  readonly retryable = true;
  /** `"nats-server"` or `"redis-server"`. */
  readonly serverName: string;
  /** The last lines the server wrote to stdout and stderr, for diagnosis. */
  readonly outputTail: string;
  readonly [brand] = true;

  /**
   * @param serverName - The server that failed to start.
   * @param reason - What went wrong, in a few words.
   * @param outputTail - The server's last output lines (may be empty).
   * @param options - Standard error options; `cause` is kept.
   */
  constructor(serverName: string, reason: string, outputTail: string, options?: ErrorOptions) {
    const details = outputTail.trim() === "" ? "" : `\n--- last output ---\n${outputTail.trim()}`;
    super(`${serverName} did not start: ${reason}${details}`, options);
    this.name = "LocalServerStartError";
    this.serverName = serverName;
    this.outputTail = outputTail;
  }

  /**
   * Checks by brand rather than `instanceof`.
   *
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link LocalServerStartError}.
   */
  static isInstance(value: unknown): value is LocalServerStartError {
    return typeof value === "object" && value !== null && brand in value;
  }
}
