/**
 * The user documentation as the docs tests read it: which Markdown files it is
 * (`README.md` and `docs/`, without the developer pages `docs/design.md` and
 * `docs/decisions/`), their fenced code blocks, links and heading anchors.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, with a trailing separator. */
export const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The opt-out marker: on the last non-blank line before a fence, its block is not type-checked. */
export const NO_CHECK_MARKER = "<!-- snippet: no-check -->";

/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** Path relative to the repository root, with `/`. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word, lowercase (`ts`, `sh`, …). */
  readonly language: string;
  readonly code: string;
  /** Whether {@link NO_CHECK_MARKER} stands right before the fence. */
  readonly noCheck: boolean;
}

/** A Markdown link or image target written in a file. */
export interface MarkdownLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/**
 * The user documentation: `README.md` and every `*.md` under `docs/` but
 * `docs/design.md` and `docs/decisions/`, as paths relative to the root.
 */
export async function userDocFiles(): Promise<string[]> {
  const underDocs = await markdownFilesUnder("docs");
  return [
    "README.md",
    ...underDocs.filter((file) => file !== "docs/design.md" && !file.startsWith("docs/decisions/")),
  ];
}

/**
 * Every file under a folder of the repository, sorted, relative to the root
 * (with `/`): none under `node_modules/` or `dist/`, and none of the probe
 * files `test/src/foundation/layering.test.ts` writes and deletes while it
 * runs. A missing folder has none.
 */
export async function repositoryFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(join(repositoryRoot, folder), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(repositoryRoot, join(entry.parentPath, entry.name)).replaceAll("\\", "/"),
    )
    .filter((file) => !file.split("/").some((part) => part === "node_modules" || part === "dist"))
    .filter((file) => !/(layering|cycle)-probe/.test(file))
    .sort();
}

/** Every `*.md` file under a folder of the repository, sorted, relative to the root. */
export async function markdownFilesUnder(folder: string): Promise<string[]> {
  return (await repositoryFilesUnder(folder)).filter((file) => file.endsWith(".md"));
}

/** The folders of the root package.json's workspaces but the test suites' own (`test`). */
export async function packageFolders(): Promise<string[]> {
  const manifest = JSON.parse(await readRepositoryFile("package.json")) as { workspaces: string[] };
  return manifest.workspaces.filter((workspace) => workspace !== "test");
}

/** Reads a file of the repository. */
export async function readRepositoryFile(file: string): Promise<string> {
  return await readFile(join(repositoryRoot, file), "utf8");
}

/**
 * The fenced code blocks of a Markdown text (backtick or tilde fences of three
 * or more, indented up to three spaces; a block may sit in a list item).
 */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[index] ?? "");
    if (open === null) continue;
    const [, indent = "", fence = "", info = ""] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const line = lines[end] ?? "";
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({
      file,
      line: index + 1,
      language: info.toLowerCase(),
      code: body.join("\n"),
      noCheck: lastNonBlankBefore(lines, index) === NO_CHECK_MARKER,
    });
    index = end;
  }
  return blocks;
}

function lastNonBlankBefore(lines: readonly string[], index: number): string | undefined {
  for (let before = index - 1; before >= 0; before -= 1) {
    const line = (lines[before] ?? "").trim();
    if (line !== "") return line;
  }
  return undefined;
}

/** Inline links and images (`[text](target)`) outside code blocks and code spans. */
export function markdownLinks(file: string, text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let inFence: string | undefined;
  text.split("\n").forEach((line, index) => {
    const fence = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (inFence === undefined) inFence = fence;
      else if (line.trim().replace(/[`~]/g, "") === "" && line.trim().startsWith(inFence))
        inFence = undefined;
      return;
    }
    if (inFence !== undefined) return;
    const withoutCode = line.replace(/`[^`]*`/g, "``");
    for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: index + 1, target: match[1] ?? "" });
    }
  });
  return links;
}

/**
 * The anchors GitHub gives a Markdown file's headings: lowercased, punctuation
 * other than `-` and `_` removed, spaces as `-`, repeats numbered `-1`, `-2`.
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let inFence = false;
  for (const line of text.split("\n")) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    // HTML tags are dropped, but not `<x>` inside a code span: GitHub keeps its text.
    const text = heading
      .split(/(`[^`]*`)/)
      .map((part, index) => (index % 2 === 1 ? part : part.replace(/<\/?[a-z][^>]*>/gi, "")))
      .join("");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? "");
  return anchors;
}
