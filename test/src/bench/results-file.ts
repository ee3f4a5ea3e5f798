import { readFile, writeFile } from "node:fs/promises";

/** The sections of `latest-results.md`, in the order they appear. */
export const resultSections = ["actor-host", "agent-turn", "gateway", "tracing"] as const;
/** One of {@link resultSections}. */
export type ResultSection = (typeof resultSections)[number];

const title = [
  "# Benchmarks: latest results",
  "",
  "Written by `npm run bench` (all), `npm run bench:host`, `npm run bench:turns`, `npm run bench:gateway` or `npm run bench:tracing` (one section each); see `README.md` beside this file.",
].join("\n");

const marker = (section: ResultSection, end: "start" | "end") =>
  `<!-- ${section} benchmark: ${end} -->`;

/**
 * The results document with one section replaced: every section sits between
 * `<!-- <name> benchmark: start -->` and `<!-- <name> benchmark: end -->`, in the
 * order of {@link resultSections}; sections found in `document` are kept, a
 * missing one says it was not run yet. A document without markers (the layout
 * before issue #12) is replaced whole.
 *
 * @param document - the current file's text ("" when there is none).
 * @param section - the section written.
 * @param content - its Markdown, without markers.
 * @returns the new document, ending with a newline.
 */
export function replaceResultSection(
  document: string,
  section: ResultSection,
  content: string,
): string {
  const parts = resultSections.map((name) => {
    if (name === section) return content.trim();
    const start = document.indexOf(marker(name, "start"));
    const end = document.indexOf(marker(name, "end"));
    if (start === -1 || end < start) return `_Not run yet (\`${name}\` benchmark)._`;
    return document.slice(start + marker(name, "start").length, end).trim();
  });
  const sections = resultSections.map(
    (name, index) => `${marker(name, "start")}\n\n${parts[index]}\n\n${marker(name, "end")}`,
  );
  return `${[title, ...sections].join("\n\n")}\n`;
}

/**
 * Writes one section of a results file (see {@link replaceResultSection}).
 *
 * @param file - path of `latest-results.md`.
 * @param section - the section written.
 * @param content - its Markdown.
 */
export async function writeResultSection(
  file: string,
  section: ResultSection,
  content: string,
): Promise<void> {
  const current = await readFile(file, "utf8").catch(() => "");
  await writeFile(file, replaceResultSection(current, section, content));
}
