/**
 * What ships or what a user reads names no issue of the project's own tracker:
 * "(issue #11)", "issues #12, #32", "see issue #15" or "(#7)" mean nothing to
 * someone who cannot see the tracker. Give the source instead: a decision
 * record (`docs/decisions/00NN-….md`, "decision 00NN") or a user guide.
 *
 * Scanned: every file under `src/` of each published workspace but its tests,
 * the CLI's `bin/` and `templates/`, the test kit's `examples/`, and each
 * published workspace's `README.md` and `package.json`. Developer history —
 * `docs/decisions/`, `docs/design.md`, the `test` workspace, `*.test.ts` files
 * inside `src/` — is left as it is.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { packageFolders, repositoryFilesUnder, repositoryRoot } from "./markdown-files.js";

/** Folders of a published workspace that ship whole, tests included (examples and templates). */
const SHIPPED_FOLDERS = ["bin", "templates", "examples"];

/**
 * `issue #N`, `issues #N, #M` and `Issue #N`, also when a comment wraps
 * between the word and the number (`issue\n * #19`), and `(#N)`.
 */
const ISSUE_REFERENCE = /\bissues?(?:\s|\*|\/\/|--)*#\d+|\(#\d+\)/gi;

/** Each issue reference in `text` as `line: excerpt` (1-based line of its start). */
function issueReferences(text: string): string[] {
  return [...text.matchAll(ISSUE_REFERENCE)].map((match) => {
    const line = text.slice(0, match.index).split("\n").length;
    return `${line}: ${match[0].replace(/\s+/g, " ")}`;
  });
}

async function filesUnder(folder: string, skipTests: boolean): Promise<string[]> {
  return (await repositoryFilesUnder(folder)).filter(
    (file) => !skipTests || !/\.test\.tsx?$/.test(file),
  );
}

/** The shipped and user-read files of every published workspace, relative to the root. */
async function shippedFiles(): Promise<string[]> {
  const nested = await Promise.all(
    (await packageFolders()).map(async (workspace) => [
      `${workspace}/README.md`,
      `${workspace}/package.json`,
      ...(await filesUnder(`${workspace}/src`, true)),
      ...(
        await Promise.all(
          SHIPPED_FOLDERS.map((folder) => filesUnder(`${workspace}/${folder}`, false)),
        )
      ).flat(),
    ]),
  );
  return nested.flat().sort();
}

async function readIfPresent(file: string): Promise<string | undefined> {
  return await readFile(join(repositoryRoot, file), "utf8").catch(() => undefined);
}

describe("no internal issue numbers in shipped files", () => {
  test("the pattern finds the forms the sources used, and nothing else", () => {
    const found = issueReferences(
      [
        "… are refused (issue #11).",
        " * moves keys (issues #12, #32) and, see issue #15,",
        " * Bounded by `maxPromptTokens` (issue",
        " * #31): entries that do not fit",
        "// Issue #19: the model in use is unavailable.",
        "one more (#7)",
      ].join("\n"),
    );
    expect(found).toEqual([
      "1: issue #11",
      "2: issues #12",
      "2: issue #15",
      "3: issue * #31",
      "5: Issue #19",
      "6: (#7)",
    ]);
    expect(
      issueReferences(
        "Unicode UAX #29; the line starts with `#12 `; anthropic-sdk-python/issues/494; color: #1d2230",
      ),
    ).toEqual([]);
  });

  test("README, package.json, src/ (without tests), bin/, templates/ and examples/ name no issue", async () => {
    const files = await shippedFiles();
    const found: string[] = [];
    for (const file of files) {
      const text = await readIfPresent(file);
      if (text === undefined) continue;
      for (const reference of issueReferences(text)) found.push(`${file}:${reference}`);
    }

    expect(files.length).toBeGreaterThan(500);
    expect(
      found,
      `internal issue numbers (give a decision record or a guide instead):\n${found.join("\n")}`,
    ).toEqual([]);
  });
});
