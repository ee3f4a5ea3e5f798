import { MAX_TEXT_LENGTH, TroupeError } from "@troupe/protocol";

/**
 * A message text is longer than a `user.message` may carry: more than
 * `MAX_TEXT_LENGTH` (262,144) characters, counted as UTF-16 code units (the
 * encoded message is at most 1 MiB). Thrown by `troupe send` before anything
 * is published (docs/decisions/0012). Code `payload_too_large`, never retryable.
 *
 * Shape: `TroupeError` plus `length` (characters read, or `undefined` when
 * reading stopped early because the input was certainly too long) and
 * `maxLength`.
 */
export class MessageTextTooLongError extends TroupeError {
  /** Characters of the text, or `undefined` when reading stopped early. */
  readonly length: number | undefined;
  /** The limit, in characters: `MAX_TEXT_LENGTH`. */
  readonly maxLength: number;

  /**
   * @param length - characters of the text (`undefined`: more than 3 bytes per
   *   allowed character were read, so it is too long whatever it holds).
   * @param source - where the text came from, e.g. `"stdin"`.
   */
  constructor(length: number | undefined, source: string) {
    const size =
      length === undefined ? "more than that" : `${length.toLocaleString("en-US")} characters`;
    super(
      "payload_too_large",
      `The message text from ${source} is too long: a user message's text is at most ` +
        `${MAX_TEXT_LENGTH.toLocaleString("en-US")} characters (UTF-16 code units; the ` +
        `encoded message at most 1 MiB), this one is ${size}. Nothing was sent.`,
      { details: { length, maxLength: MAX_TEXT_LENGTH } },
    );
    this.name = "MessageTextTooLongError";
    this.length = length;
    this.maxLength = MAX_TEXT_LENGTH;
  }
}

/**
 * Checks a message text against `MAX_TEXT_LENGTH` before it is sent.
 *
 * @param text - the text.
 * @param source - where it came from, for the error (`"the argument"`, `"stdin"`).
 * @returns `text`.
 * @throws {@link MessageTextTooLongError} above 262,144 characters.
 */
export function checkMessageTextLength(text: string, source: string): string {
  if (text.length > MAX_TEXT_LENGTH) throw new MessageTextTooLongError(text.length, source);
  return text;
}

/**
 * Reads a whole message text from a byte stream (`troupe send <id> -` reads
 * stdin), as UTF-8, without its one final line break (`\n` or `\r\n`, which
 * `echo` and editors add); anything else is kept as is. Stops reading once the
 * input is certainly too long (more than 3 bytes per allowed character, plus
 * the line break), so a huge input does not fill the memory.
 *
 * @param input - the stream, e.g. `process.stdin`.
 * @param source - where it comes from, for the error.
 * @returns the text.
 * @throws {@link MessageTextTooLongError} above `MAX_TEXT_LENGTH` characters.
 */
export async function readMessageText(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  source = "stdin",
): Promise<string> {
  const maxBytes = MAX_TEXT_LENGTH * 3 + 2;
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    bytes += buffer.length;
    if (bytes > maxBytes) throw new MessageTextTooLongError(undefined, source);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
  return checkMessageTextLength(text, source);
}
