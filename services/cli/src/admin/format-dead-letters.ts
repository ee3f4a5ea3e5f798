import type { DeadLetterView } from "./list-dead-letters.js";
import { textTable } from "./text-table.js";

/**
 * Renders dead letters as plain text for `troupe dead-letters`: one row each,
 * newest first (sequence, stored at (UTC), code, original subject, reason cut at
 * 120 characters). No colors.
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
      { heading: "reason" },
    ],
    letters.map((letter) => [
      String(letter.sequence),
      new Date(letter.storedAtMs).toISOString(),
      letter.code,
      letter.subject,
      letter.reason.length > 120 ? `${letter.reason.slice(0, 119)}…` : letter.reason,
    ]),
  );
}
