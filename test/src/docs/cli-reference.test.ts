/**
 * `docs/reference/cli.md` is generated from the commander definitions of the
 * `troupe` command (`infra/cli-reference.mjs`, `npm run docs:cli`); this test
 * fails when the committed file is not what a fresh generation writes, so a
 * new command, flag or default cannot go undocumented. The generator imports
 * the built `@troupe/cli`, which the suite's global setup brings up to date.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { readRepositoryFile, repositoryRoot } from "./markdown-files.js";

const GENERATE_TIMEOUT_MS = 60_000;

describe("the CLI reference", () => {
  test(
    "docs/reference/cli.md is exactly what `npm run docs:cli` generates from the commander definitions",
    async () => {
      const { stdout: generated } = await promisify(execFile)(
        process.execPath,
        [join(repositoryRoot, "infra/cli-reference.mjs"), "--stdout"],
        { cwd: repositoryRoot, timeout: GENERATE_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      );
      const committed = await readRepositoryFile("docs/reference/cli.md");

      expect(generated).toContain("## `troupe dev`");
      expect(
        committed,
        "docs/reference/cli.md is out of date with the commands: run `npm run docs:cli` and commit the result",
      ).toBe(generated);
    },
    GENERATE_TIMEOUT_MS + 10_000,
  );
});
