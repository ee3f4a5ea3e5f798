const unknownTimeZoneBrand: unique symbol = Symbol.for("troupe.demo.unknown-time-zone-error");

/**
 * Thrown by the demo `clock` tool for a time zone that `Intl` does not know.
 * Not retryable: the same name fails again.
 *
 * Shape: `{ name: "UnknownTimeZoneError", message, timeZone }`.
 *
 * @see https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/DateTimeFormat/DateTimeFormat#timezone
 */
export class UnknownTimeZoneError extends Error {
  /** Never retryable. */
  readonly retryable = false;
  private readonly [unknownTimeZoneBrand] = true;

  /**
   * @param timeZone - the name that was given.
   * @param cause - what `Intl.DateTimeFormat` threw.
   */
  constructor(
    readonly timeZone: string,
    cause?: unknown,
  ) {
    super(
      `Unknown time zone "${timeZone}": use an IANA time zone name such as "UTC", "Europe/Paris" or "Asia/Tokyo".`,
      cause === undefined ? undefined : { cause },
    );
    this.name = "UnknownTimeZoneError";
  }

  /**
   * Whether `value` is an {@link UnknownTimeZoneError}, from any copy of the package.
   *
   * @param value - anything.
   */
  static isInstance(value: unknown): value is UnknownTimeZoneError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [unknownTimeZoneBrand]?: unknown })[unknownTimeZoneBrand] === true
    );
  }
}
