import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * How the integration suites' child processes (actor hosts, the `troupe`
 * command, fixture servers) run the repository's code:
 *
 * - `dist` (the default in a vitest run): the JavaScript that `tsc` built into
 *   each package's `dist/`, which the global setup (`global-setup.ts`) builds
 *   once per run with a cached `turbo run build`. A child then starts in about
 *   1 s of CPU instead of 2.5–3 s compiling and resolving sources through tsx,
 *   and dozens start at once when the files run in parallel.
 * - `source`: the TypeScript sources through tsx and the `@troupe/source`
 *   export condition, with no build. Choose it with `TROUPE_TEST_CHILD_CODE=source`.
 *
 * The test code itself always runs on the sources (vitest transforms them).
 */
export type ChildCode = "dist" | "source";

/** Environment variable choosing {@link ChildCode}; the global setup writes the answer back for the workers. */
export const childCodeVariable = "TROUPE_TEST_CHILD_CODE";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The child code mode in effect (see {@link ChildCode}).
 *
 * @returns `"source"` only when {@link childCodeVariable} says so.
 * @throws Error when the variable holds something else than `dist` or `source`.
 */
export function childCode(): ChildCode {
  const value = process.env[childCodeVariable] ?? "dist";
  if (value === "dist" || value === "source") return value;
  throw new Error(`${childCodeVariable} must be dist or source, not "${value}"`);
}

/**
 * The `node` arguments that run a TypeScript entry of this repository in the
 * mode in effect: `["test/dist/fixtures/x.js"]` for `test/src/fixtures/x.ts`
 * with `dist`, `["--import", "tsx", "--conditions=@troupe/source", entry]` with
 * `source`.
 *
 * @param entry - a `.ts` file relative to the repository root, under `<package>/src/`.
 * @returns The arguments to put after `process.execPath` (cwd: the repository root).
 * @throws Error when, with `dist`, the built file is missing (the build did not run).
 */
export function nodeArgsFor(entry: string): string[] {
  if (childCode() === "source") return ["--import", "tsx", "--conditions=@troupe/source", entry];
  const built = entry.replace(/(^|\/)src\//, "$1dist/").replace(/\.ts$/, ".js");
  if (built === entry || !existsSync(`${repositoryRoot}${built}`)) {
    throw new Error(
      `${built} is missing: the integration suites run their child processes from dist/, which ` +
        `their global setup builds (\`npx turbo run build\`); or run on the sources with ${childCodeVariable}=source`,
    );
  }
  return [built];
}
