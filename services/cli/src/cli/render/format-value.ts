/** Characters of a value shown on one line, at most, before it is cut with `…`. */
export const DEFAULT_VALUE_MAX_CHARS = 200;

/**
 * A value on one line: strings as they are, anything else as compact JSON
 * (`undefined` and unserialisable values as `String(value)`); newlines become
 * `⏎`, and text over `maxChars` characters is cut, ending with `…`.
 *
 * @param value - anything.
 * @param maxChars - longest result, in characters (UTF-16 code units); default 200.
 * @example formatValue({ timeZone: "Asia/Tokyo" }) // '{"timeZone":"Asia/Tokyo"}'
 * @example formatValue("a".repeat(300), 5) // "aaaa…"
 */
export function formatValue(value: unknown, maxChars = DEFAULT_VALUE_MAX_CHARS): string {
  const text = (typeof value === "string" ? value : toJson(value)).replace(/\r?\n/g, "⏎");
  return text.length > maxChars ? `${text.slice(0, Math.max(0, maxChars - 1))}…` : text;
}

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
