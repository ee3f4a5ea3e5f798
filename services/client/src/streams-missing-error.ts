import { TroupeError } from "@troupe/protocol";

/**
 * A JetStream stream of the deployment does not exist: no Troupe host has
 * started against this NATS server with this prefix yet (hosts create the
 * streams when they start). Retryable: start a host, then try again.
 * Code `unavailable`.
 *
 * Shape: `TroupeError` plus `stream` (the missing stream's name, e.g.
 * `TROUPE_EVENTS`) and `prefix` (the deployment prefix the client used).
 *
 * @example
 * ```ts
 * try {
 *   await client.lastSequence();
 * } catch (error) {
 *   if (StreamsMissingError.isInstance(error)) console.error(`start a host first: ${error.stream}`);
 * }
 * ```
 */
export class StreamsMissingError extends TroupeError {
  /** Name of the missing stream, e.g. `TROUPE_EVENTS`. */
  readonly stream: string;
  /** Deployment prefix the client was configured with, e.g. `troupe`. */
  readonly prefix: string;

  /**
   * @param stream - name of the missing stream.
   * @param prefix - the client's deployment prefix.
   * @param cause - the JetStream error that said so.
   */
  constructor(stream: string, prefix: string, cause?: unknown) {
    super(
      "unavailable",
      `The JetStream stream ${stream} does not exist: no Troupe host has created the streams of ` +
        `deployment prefix "${prefix}" on this NATS server yet. Start a host (for example ` +
        "`npx troupe dev`), or check that the client's prefix matches the hosts'.",
      { retryable: true, cause, details: { stream, prefix } },
    );
    this.name = "StreamsMissingError";
    this.stream = stream;
    this.prefix = prefix;
  }

  /**
   * Whether `value` is a `StreamsMissingError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `unavailable` and this name.
   */
  static override isInstance(value: unknown): value is StreamsMissingError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "unavailable" &&
      value.name === "StreamsMissingError"
    );
  }
}
