/**
 * The text a model sees for a tool's result: a string as is, anything else as
 * JSON (`undefined` as `null`).
 *
 * @param result - what the tool's `execute` resolved to.
 * @returns the text.
 * @throws TypeError when the result cannot be serialised as JSON (a BigInt, a cycle).
 * @example stringifyToolResult({ temperatureC: 21 }) // '{"temperatureC":21}'
 */
export function stringifyToolResult(result: unknown): string {
  if (typeof result === "string") return result;
  const json = JSON.stringify(result ?? null) as string | undefined;
  // JSON.stringify returns undefined for a function or a symbol.
  if (json === undefined) throw new TypeError(`a ${typeof result} is not a JSON value`);
  return json;
}

/**
 * Size of a text in UTF-8 bytes.
 *
 * @param text - any text.
 */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The longest beginning of `text` whose UTF-8 encoding fits in `maxBytes`,
 * cut between characters (never inside a multi-byte character).
 *
 * @param text - any text.
 * @param maxBytes - the limit in bytes (≥ 0).
 * @returns the beginning; `text` itself when it fits.
 * @example truncateUtf8("héllo", 2) // "h" ("é" takes 2 bytes)
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  // Only the first maxBytes code units can fit (each takes a byte or more), so
  // only they are encoded: an 8 MiB result costs what its shown part does. A
  // cut inside a surrogate pair would encode the lone half as
  // U+FFFD: that half is left out.
  let prefix = text.length > maxBytes ? text.slice(0, Math.max(0, maxBytes)) : text;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (prefix !== text && last >= 0xd800 && last <= 0xdbff) prefix = prefix.slice(0, -1);
  const bytes = Buffer.from(prefix, "utf8");
  if (bytes.length <= maxBytes) return prefix;
  let end = Math.max(0, maxBytes);
  // A continuation byte (10xxxxxx) never starts a character: step back to one that does.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString("utf8");
}

/**
 * The content a model sees for a result larger than its limit: the first
 * `maxBytes` bytes, then a note saying how large the result is and where the
 * full one is kept.
 *
 * @param text - the full result text.
 * @param maxBytes - the tool's `maxResultBytes`, in bytes.
 * @param ref - the reference of the full result (`resultRef`).
 * @returns the truncated content with the note (the note comes on top of `maxBytes`).
 */
export function truncatedContent(text: string, maxBytes: number, ref: string): string {
  const shown = truncateUtf8(text, maxBytes);
  return (
    `${shown}\n\n[Truncated: the result has ${utf8ByteLength(text)} bytes; only the first ` +
    `${utf8ByteLength(shown)} are shown. The full result is stored by reference "${ref}" ` +
    `and can be retrieved with readToolResult.]`
  );
}
