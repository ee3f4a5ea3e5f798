import type { TroupeHistory } from "@troupe/protocol";

/**
 * One line about a written history, for stderr:
 * `wrote 2 actors (session/s1: 9 messages, 8 generations; run/s1: …) to file (12345 bytes)`.
 *
 * @param history - the history written.
 * @param file - where.
 * @param bytes - its size in bytes.
 */
export function describeExport(history: TroupeHistory, file: string, bytes: number): string {
  const actors = history.actors
    .map(
      (actor) =>
        `${actor.address}: ${plural(actor.journal.length, "message")}, ${plural(actor.generations.length, "generation")}`,
    )
    .join("; ");
  return `wrote ${plural(history.actors.length, "actor")} (${actors}) to ${file} (${bytes} bytes)`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
