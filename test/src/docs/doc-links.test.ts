/**
 * Relative links of the documentation lead somewhere: every `[text](target)`
 * in `README.md`, `docs/` (decisions and design included), `infra/` and every
 * workspace's Markdown (the packages' and the test suites' READMEs) names a
 * file or folder that exists, and an anchor into a Markdown file names one of
 * its headings. Links to other sites are not fetched.
 */
import { stat } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import { describe, expect, test } from "vitest";
import {
  headingAnchors,
  markdownFilesUnder,
  markdownLinks,
  readRepositoryFile,
  repositoryRoot,
} from "./markdown-files.js";

/** `README.md`, `docs/`, `infra/` and every workspace's Markdown (package READMEs included). */
async function documentationFiles(): Promise<string[]> {
  const manifest = JSON.parse(await readRepositoryFile("package.json")) as { workspaces: string[] };
  const folders = ["docs", "infra", ...manifest.workspaces];
  const nested = await Promise.all(folders.map((folder) => markdownFilesUnder(folder)));
  return [...new Set(["README.md", ...nested.flat()])].filter(
    (file) => !file.split("/").includes("dist"),
  );
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(
    () => true,
    () => false,
  );
}

async function brokenLinks(file: string): Promise<string[]> {
  const text = await readRepositoryFile(file);
  const broken: string[] = [];
  for (const link of markdownLinks(file, text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // https:, mailto:
    const [pathPart = "", anchor] = link.target.split("#", 2);
    const target =
      pathPart === ""
        ? join(repositoryRoot, file)
        : normalize(join(repositoryRoot, dirname(file), decodeURIComponent(pathPart)));
    if (!target.startsWith(repositoryRoot) || !(await exists(target))) {
      broken.push(`${file}:${link.line}: ${link.target} (no such file or folder)`);
      continue;
    }
    if (anchor === undefined || anchor === "" || !target.endsWith(".md")) continue;
    const anchors = headingAnchors(await readRepositoryFile(target.slice(repositoryRoot.length)));
    if (!anchors.has(anchor)) {
      broken.push(`${file}:${link.line}: ${link.target} (no heading with anchor #${anchor})`);
    }
  }
  return broken;
}

describe("links of the documentation", () => {
  test("every relative link names an existing file, and every anchor a heading of it", async () => {
    const files = await documentationFiles();
    const broken = (await Promise.all(files.map((file) => brokenLinks(file)))).flat();

    expect(files.length).toBeGreaterThan(20);
    expect(broken, `broken links:\n${broken.join("\n")}`).toEqual([]);
  });
});
