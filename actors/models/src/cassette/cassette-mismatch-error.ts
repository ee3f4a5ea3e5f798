import { TroupeError } from "@troupe/protocol";

/**
 * A model request a cassette has no recording of (code `cassette_mismatch`,
 * not retryable): the prompt or the settings changed since the cassette was
 * recorded, or the test makes a call it did not make then. The message holds a
 * line diff of the request against the closest recorded one (`-` recorded,
 * `+` now), so a changed instruction reads as one `-`/`+` pair. Thrown from the
 * model call, it fails the run with this code and message.
 */
export class CassetteMismatchError extends TroupeError {
  /**
   * @param file - the cassette file.
   * @param diff - the rendered line diff against the closest recording, or a
   *   note that the cassette is empty.
   */
  constructor(file: string, diff: string) {
    super(
      "cassette_mismatch",
      `the model request is not in the cassette ${file} (re-record it with TROUPE_CASSETTE=record):\n${diff}`,
      { retryable: false, details: { file } },
    );
    this.name = "CassetteMismatchError";
  }
}

/** Replay of a cassette file that does not exist (code `cassette_missing`). */
export class CassetteMissingError extends TroupeError {
  /** @param file - the cassette file. */
  constructor(file: string) {
    super(
      "cassette_missing",
      `no cassette at ${file}: record it once with TROUPE_CASSETTE=record (needs the real model)`,
      { retryable: false, details: { file } },
    );
    this.name = "CassetteMissingError";
  }
}
