/** How many leading bytes {@link describeLeadingBytes} shows. */
export const SHOWN_BYTE_COUNT = 32;

/**
 * The first bytes of a body in a form that fits one error line: hex, then the
 * same bytes as text with anything outside printable ASCII shown as `.`.
 *
 * @param bytes - the body.
 * @param count - how many bytes to show; default {@link SHOWN_BYTE_COUNT} (32).
 * @returns e.g. `first 5 of 5 bytes: 68 65 6c 6c 6f |hello|`.
 *
 * @example
 * ```ts
 * describeLeadingBytes(new TextEncoder().encode("hello")); // "first 5 of 5 bytes: 68 65 6c 6c 6f |hello|"
 * ```
 */
export function describeLeadingBytes(bytes: Uint8Array, count = SHOWN_BYTE_COUNT): string {
  const shown = bytes.subarray(0, count);
  const hex = Array.from(shown, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
  const text = Array.from(shown, (byte) =>
    byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : ".",
  ).join("");
  return `first ${shown.length} of ${bytes.length} bytes: ${hex} |${text}|`;
}
