import { TroupeError } from "@troupe/protocol";

/**
 * An operation of `TroupeClient` could not finish because the client was
 * closed (`close()` or `await using` ended) while it ran, or it was called
 * after that. Not retryable on this client: connect a new one.
 * Code `unavailable`.
 */
export class ClientClosedError extends TroupeError {
  /**
   * @param operation - what was cut short, e.g. `"waitForRun"`.
   */
  constructor(operation: string) {
    super("unavailable", `The Troupe client was closed during ${operation}.`, {
      retryable: false,
      details: { operation },
    });
    this.name = "ClientClosedError";
  }

  /**
   * Whether `value` is a `ClientClosedError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `unavailable` and this name.
   */
  static override isInstance(value: unknown): value is ClientClosedError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "unavailable" &&
      value.name === "ClientClosedError"
    );
  }
}
