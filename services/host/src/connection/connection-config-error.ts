import { TroupeError } from "@troupe/protocol";

/**
 * A connection setting is unusable: the config file cannot be read or parsed,
 * breaks the schema, or a value (URL, file path, mode combination) is wrong.
 * Nothing was connected. Not retryable. Code `invalid_options` (docs/decisions/0033).
 *
 * Shape: `TroupeError` plus `source` (e.g. `"--config /etc/troupe.yaml"`,
 * `"TROUPE_REDIS_URL"`, `"--nats-tls-ca"`). Messages never carry a password:
 * URLs in them are redacted.
 */
export class ConnectionConfigError extends TroupeError {
  /** Where the bad value came from (flag, variable or file). */
  readonly source: string;

  /**
   * @param source - the flag, environment variable or file.
   * @param problem - what is wrong and how to fix it (no secrets).
   * @param cause - the underlying error (file system, YAML, zod), if any.
   */
  constructor(source: string, problem: string, cause?: unknown) {
    super("invalid_options", `Bad connection setting (${source}): ${problem}`, {
      retryable: false,
      ...(cause === undefined ? {} : { cause }),
      details: { source },
    });
    this.name = "ConnectionConfigError";
    this.source = source;
  }

  /**
   * Whether `value` is a `ConnectionConfigError` from any copy of the package.
   *
   * @param value - anything.
   * @returns `true` for a branded Troupe error with this name.
   */
  static override isInstance(value: unknown): value is ConnectionConfigError {
    return TroupeError.isInstance(value) && value.name === "ConnectionConfigError";
  }
}
