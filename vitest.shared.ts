import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const repositoryRoot = fileURLToPath(new URL(".", import.meta.url));

/**
 * Reporters: the default one, plus, in CI (`CI` set) or when
 * `TROUPE_TEST_REPORTS` is set, a JSON report of every file's and test's
 * duration in `test-results/<package folder>.json` at the repository root
 * (`test-results/services-cli.json` for `services/cli`), which
 * `node infra/test-timings.mjs` turns into a table of the slowest files.
 */
export function reporters(): (string | [string, Record<string, unknown>])[] {
  const wanted = process.env.CI !== undefined || process.env.TROUPE_TEST_REPORTS !== undefined;
  if (!wanted) return ["default"];
  const name = relative(repositoryRoot, process.cwd()).replaceAll("/", "-") || "root";
  return [
    "default",
    ["json", { outputFile: join(repositoryRoot, "test-results", `${name}.json`) }],
  ];
}

/** How many test files may run at once: `TROUPE_TEST_WORKERS`, else `fallback(cores)`. */
export function maxWorkers(fallback: (cores: number) => number): number {
  const chosen = process.env.TROUPE_TEST_WORKERS;
  if (chosen === undefined || chosen === "") return fallback(availableParallelism());
  const count = Number.parseInt(chosen, 10);
  if (!Number.isInteger(count) || count < 1 || String(count) !== chosen.trim()) {
    throw new Error(`TROUPE_TEST_WORKERS must be a positive whole number, not "${chosen}"`);
  }
  return count;
}

/**
 * Shared vitest settings: resolve workspace packages to their TypeScript sources
 * (the `@troupe/source` export condition) and never run compiled copies in `dist/`.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ["@troupe/source"] },
  ssr: { resolve: { conditions: ["@troupe/source"] } },
  // vitest runs global setup files in its own environment: sources there too.
  environments: { __vitest__: { resolve: { conditions: ["@troupe/source"] } } },
  test: {
    include: ["src/**/*.test.ts"],
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One module graph per worker rather than per file: the unit suites spent
    // most of their time importing the same modules again for every file
    // (the cli package's: 50 s → 8 s). A file that needs a fresh graph (it
    // registers process-wide state) says so in its package's config.
    isolate: false,
    reporters: reporters(),
  },
});
