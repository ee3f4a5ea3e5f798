import type { ReplayCommandReport } from "./replay-actor-command.js";
import { labelledLines } from "./text-table.js";

/** Longest value text {@link formatReplayReport} prints for each side of a difference. */
export const DIFFERENCE_PREVIEW_CHARS = 300;

/**
 * Renders a {@link ReplayCommandReport} as plain text for `troupe replay`: the
 * verdict, the messages replayed, the stored and replayed generations and, when
 * they differ, where (path, generation, stored and replayed values as JSON cut at
 * {@link DIFFERENCE_PREVIEW_CHARS}), and the machine versions when the stored
 * snapshot's differs from the replay's or the step refused (docs/decisions/0022). No colors.
 *
 * @param report - from `replayActorCommand`.
 * @returns the text, lines joined with `\n`, no trailing newline.
 */
export function formatReplayReport(report: ReplayCommandReport): string {
  const verdict =
    report.refusal !== undefined
      ? "NO, the replay stopped: the step refused a snapshot of another machine version"
      : report.storedGeneration === undefined && report.replayedGeneration === undefined
        ? "nothing to compare (no stored snapshot, no journal)"
        : report.reproduces
          ? "yes, the journal reproduces the stored snapshot"
          : "NO, the replay differs from the stored snapshot";
  const pairs: [string, string][] = [
    ["actor", report.actor],
    ["reproduces", verdict],
    ["messages replayed", String(report.messagesReplayed)],
    [
      "stored generation",
      report.storedGeneration === undefined ? "-" : String(report.storedGeneration),
    ],
    [
      "replayed generation",
      report.replayedGeneration === undefined ? "-" : String(report.replayedGeneration),
    ],
  ];
  if (report.versionMismatch !== undefined) {
    pairs.push([
      "machine versions",
      `stored snapshot ${report.versionMismatch.storedVersion}, replayed with ${report.versionMismatch.replayVersion}`,
    ]);
  }
  if (report.refusal !== undefined) {
    pairs.push(["refused", `at inbox sequence ${report.refusal.seq}: ${report.refusal.message}`]);
  }
  if (report.difference !== undefined) {
    pairs.push(
      [
        "first difference",
        `${report.difference.path} at generation ${report.difference.generation}`,
      ],
      ["  stored", preview(report.difference.stored)],
      ["  replayed", preview(report.difference.replayed)],
    );
  }
  return labelledLines(pairs);
}

function preview(value: unknown): string {
  const text = value === undefined ? "(absent)" : JSON.stringify(value);
  return text.length > DIFFERENCE_PREVIEW_CHARS
    ? `${text.slice(0, DIFFERENCE_PREVIEW_CHARS)}… (${text.length} chars)`
    : text;
}
