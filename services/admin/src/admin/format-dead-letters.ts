import { cutText } from "@troupe/protocol";
import type { DeadLetterView } from "./list-dead-letters.js";
import { textTable } from "./text-table.js";

/** Characters of the body shown in the text view. */
const BODY_CHARS = 40;
/** Characters of the reason shown in the text view. */
const REASON_CHARS = 120;

/**
 * Renders dead letters as plain text for `troupe deadletters`: one row each,
 * newest first (sequence, stored at (UTC), code, the subject the message was
 * published to, the body's first 40 characters with control characters
 * escaped, the reason cut at 120 characters). No colors.
 *
 * @param letters - from `listDeadLetters`.
 * @returns the text, no trailing newline; `no dead letters` for none.
 */
export function formatDeadLetters(letters: readonly DeadLetterView[]): string {
  if (letters.length === 0) return "no dead letters";
  return textTable(
    [
      { heading: "seq", align: "right" },
      { heading: "stored at" },
      { heading: "code" },
      { heading: "subject" },
      { heading: "body" },
      { heading: "reason" },
    ],
    letters.map((letter) => [
      String(letter.sequence),
      new Date(letter.storedAtMs).toISOString(),
      letter.code,
      letter.publicSubject,
      letter.preview === undefined ? "-" : cut(printable(letter.preview), BODY_CHARS),
      cut(letter.reason, REASON_CHARS),
    ]),
  );
}

function cut(text: string, characters: number): string {
  return text.length > characters ? `${cutText(text, characters - 1)}…` : text;
}

/** Control characters (newlines, escapes) as JSON escapes, so a row stays one line. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, (character) =>
    JSON.stringify(character).slice(1, -1),
  );
}
