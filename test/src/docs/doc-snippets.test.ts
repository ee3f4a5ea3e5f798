/**
 * The code of the user documentation compiles: every ```ts / ```typescript
 * (and ```js) block of `README.md` and `docs/` (without `docs/design.md` and
 * `docs/decisions/`) is written to a module of its own and type-checked by one
 * strict `tsc --noEmit` run against the packages' published types (their
 * `dist/*.d.ts`, as an installed project sees them). A block preceded by
 * `<!-- snippet: no-check -->` is skipped; that is for fragments only.
 *
 * The modules live in `test/node_modules/.cache/troupe-doc-snippets/<pid>/`,
 * inside the test workspace so `@troupe/*`, `zod` and `vitest` resolve through
 * node_modules as in a user's project, and ignored by git and Prettier; they
 * are removed when the check passes and kept for a look when it fails. A
 * failure names the Markdown file and line of each error.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  codeBlocks,
  readRepositoryFile,
  repositoryRoot,
  userDocFiles,
  type CodeBlock,
} from "./markdown-files.js";

/** One folder per process, so concurrent runs (`npm run test:repeat -- --parallel`) do not share it. */
const snippetFolder = join(
  repositoryRoot,
  "test/node_modules/.cache/troupe-doc-snippets",
  String(process.pid),
);
const TSC_TIMEOUT_MS = 180_000;
const typeScriptLanguages = new Set(["ts", "typescript"]);
const javaScriptLanguages = new Set(["js", "javascript", "mjs"]);

/** The compiler settings of a user's strict project (this repository's own, without source conditions). */
const compilerOptions = {
  target: "ES2023",
  lib: ["ES2023"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  esModuleInterop: true,
  skipLibCheck: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  resolveJsonModule: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  types: ["node"],
};

async function checkedBlocks(): Promise<{ checked: CodeBlock[]; skipped: CodeBlock[] }> {
  const checked: CodeBlock[] = [];
  const skipped: CodeBlock[] = [];
  for (const file of await userDocFiles()) {
    for (const block of codeBlocks(file, await readRepositoryFile(file))) {
      const isCode =
        typeScriptLanguages.has(block.language) || javaScriptLanguages.has(block.language);
      if (!isCode) continue;
      (block.noCheck ? skipped : checked).push(block);
    }
  }
  return { checked, skipped };
}

/** A block as a module: `export {}` appended when it has no import or export, so top-level names stay its own. */
function moduleText(block: CodeBlock): string {
  const isModule = /^\s*(import|export)\s/m.test(block.code);
  return isModule ? `${block.code}\n` : `${block.code}\nexport {};\n`;
}

async function typeCheck(blocks: readonly CodeBlock[]): Promise<string[]> {
  await rm(snippetFolder, { recursive: true, force: true });
  await mkdir(snippetFolder, { recursive: true });
  await writeFile(join(snippetFolder, "package.json"), '{ "type": "module", "private": true }\n');
  const names = new Map<string, CodeBlock>();
  for (const [index, block] of blocks.entries()) {
    const extension = typeScriptLanguages.has(block.language) ? "ts" : "mjs";
    const name = `snippet-${String(index).padStart(3, "0")}.${extension}`;
    names.set(name, block);
    await writeFile(join(snippetFolder, name), moduleText(block));
  }
  await writeFile(
    join(snippetFolder, "tsconfig.json"),
    JSON.stringify({ compilerOptions, files: [...names.keys()] }, null, 2),
  );
  const tsc = join(repositoryRoot, "node_modules/typescript/bin/tsc");
  const output = await promisify(execFile)(
    process.execPath,
    [tsc, "-p", join(snippetFolder, "tsconfig.json"), "--pretty", "false"],
    { cwd: snippetFolder, timeout: TSC_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
  ).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string; stderr?: string; code?: unknown }) => {
      if (error.stdout === undefined || error.stdout === "") throw error;
      return error.stdout;
    },
  );
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const located = /^(?:.*[\\/])?(snippet-\d+\.\w+)\((\d+),(\d+)\): (.*)$/.exec(line);
      const block = located === null ? undefined : names.get(located[1] ?? "");
      if (located === null || block === undefined) return line;
      const markdownLine = block.line + Number(located[2]);
      return `${block.file}:${markdownLine}:${located[3]} (block at line ${block.line}): ${located[4]}`;
    });
}

describe("code in the user documentation", () => {
  test(
    "every TypeScript and JavaScript block of README.md and docs/ type-checks under strict settings against the packages' types",
    async () => {
      const { checked, skipped } = await checkedBlocks();
      expect(checked.length).toBeGreaterThan(20);
      expect(
        skipped.length,
        `blocks marked "<!-- snippet: no-check -->": ${skipped.map((block) => `${block.file}:${block.line}`).join(", ")}`,
      ).toBeLessThanOrEqual(Math.ceil(checked.length / 5));

      const errors = await typeCheck(checked);

      expect(
        errors,
        `a snippet in the docs does not compile; fix the snippet (or the API it shows); ` +
          `the modules are in ${snippetFolder}:\n${errors.join("\n")}`,
      ).toEqual([]);
      await rm(snippetFolder, { recursive: true, force: true });
    },
    TSC_TIMEOUT_MS + 10_000,
  );
});
