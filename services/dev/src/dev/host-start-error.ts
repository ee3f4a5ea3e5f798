import { TROUPE_ERROR_CODES, TroupeError, type TroupeErrorCode } from "@troupe/protocol";

/**
 * A `troupe host` child of `troupe dev` did not start. When the host said why
 * (its `--json` error line `{"ok":false,"error":{"code","message"}}`), this
 * error carries that code and message only, so `troupe dev` prints the reason
 * once (a bad agent module was printed four times); otherwise the
 * host's last output. Not retryable: the same host would fail the same way.
 */
export class HostStartError extends TroupeError {
  /**
   * @param why - `exited (code 1)` or `did not report ready within 60000 ms`.
   * @param reported - the host's own error line, when it printed one.
   * @param tail - the host's last output lines (used when it reported nothing).
   */
  constructor(
    why: string,
    reported: { readonly code: string; readonly message: string } | undefined,
    tail: readonly string[],
  ) {
    super(
      reported === undefined ? "internal" : knownCode(reported.code),
      reported === undefined
        ? `troupe host ${why}${tail.length === 0 ? "" : `:\n${tail.join("\n")}`}`
        : reported.message,
      { retryable: false, details: { why } },
    );
    this.name = "HostStartError";
  }
}

function knownCode(code: string): TroupeErrorCode {
  return (TROUPE_ERROR_CODES as readonly string[]).includes(code)
    ? (code as TroupeErrorCode)
    : "internal";
}

/**
 * Reads the error line `troupe … --json` prints on stdout when it fails:
 * `{"ok":false,"error":{"code":…,"message":…}}`.
 *
 * @returns the code and message, or `undefined` for any other line.
 */
export function parseErrorLine(line: string): { code: string; message: string } | undefined {
  if (!line.startsWith('{"ok":false')) return undefined;
  try {
    const parsed = JSON.parse(line) as {
      ok?: unknown;
      error?: { code?: unknown; message?: unknown };
    };
    const { code, message } = parsed.error ?? {};
    return parsed.ok === false && typeof code === "string" && typeof message === "string"
      ? { code, message }
      : undefined;
  } catch {
    return undefined;
  }
}
