/**
 * Every public package, as packed for publishing, passes `publint` and
 * `@arethetypeswrong/cli` (issue #33, "Releases"; decision 0052). Both read
 * the tarball `npm pack` wrote (`packPublicPackages`, shared with the other
 * packaging files), not the workspace folder: what is checked is what a user
 * downloads.
 *
 * - publint (its Node API) on the tarball, `strict` (warnings count as errors)
 *   and at the `suggestion` level: any message fails, each listed with
 *   publint's own wording. Export conditions it does not know (our
 *   `@troupe/source`, pointing at `src/`, which is not published) are skipped
 *   by publint by design.
 * - attw (`attw <file.tgz> --format json --profile esm-only`): the packages
 *   are ES modules only, so the profile leaves out the two resolutions that
 *   cannot load them by design — TypeScript's `node10` (no `exports` support)
 *   and `node16` from CommonJS (TypeScript before 5.8 refuses a `require` of
 *   ESM, which Node.js 22.12+ allows) — and checks `node16` from ESM and
 *   `bundler` with every rule. A package without types would pass attw
 *   vacuously, so the test also requires that it found types.
 */
import { spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { publint } from "publint";
import { formatMessage, formatMessagePath } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { packPublicPackages, PUBLIC_PACKAGES } from "./pack-workspaces.js";
import { cleanEnvironment } from "./run-command.js";

/** `npm pack` of the public packages with their turbo builds (or the wait for the global setup's). */
const PACK_TIMEOUT_MS = 240_000;
/** One attw run: a TypeScript program per entry point and resolution (~2 s a package here). */
const ATTW_TIMEOUT_MS = 60_000;

/** The attw profile for ES-module-only packages, and the resolutions it leaves out. */
const ATTW_PROFILE = "esm-only";
const ATTW_PROFILE_IGNORES: readonly string[] = ["node10", "node16-cjs"];

/** The attw command-line script, run with this Node.js. */
const attwBin = join(
  dirname(createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json")),
  "dist",
  "index.js",
);

/** What the JSON output of attw holds, as far as this test reads it. */
interface AttwProblem {
  readonly kind: string;
  readonly entrypoint?: string;
  readonly resolutionKind?: string;
}
interface AttwReport {
  readonly analysis: {
    readonly types: false | { readonly kind: string };
    readonly entrypoints: Readonly<Record<string, unknown>>;
    readonly problems: readonly AttwProblem[];
  };
}

/**
 * attw's verdict on a tarball: its exit code and its report. Its output goes
 * to a file, not a pipe: attw calls `process.exit` when it finds a problem,
 * which cuts a report written to a pipe off at 64 KiB — exactly the reports
 * this test must read.
 */
async function runAttw(
  tarball: string,
  folder: string,
): Promise<{ exitCode: number; report: AttwReport }> {
  const reportFile = join(folder, `${basename(tarball)}.attw.json`);
  const output = await open(reportFile, "w");
  try {
    const child = spawn(
      process.execPath,
      [attwBin, tarball, "--format", "json", "--profile", ATTW_PROFILE, "--no-color"],
      // Not the repository: attw reads an `.attw.json` from its folder.
      { cwd: folder, env: cleanEnvironment(), stdio: ["ignore", output.fd, "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), ATTW_TIMEOUT_MS);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    }).finally(() => clearTimeout(timer));
    const stdout = await readFile(reportFile, "utf8");
    // 0: no problem the profile counts; 1: problems, with a report; anything else is attw failing.
    if ((exitCode !== 0 && exitCode !== 1) || !stdout.trimStart().startsWith("{")) {
      throw new Error(
        `attw on ${tarball} exited with ${String(exitCode)}:\n${stdout.slice(0, 4_000)}\n${stderr}`,
      );
    }
    return { exitCode, report: JSON.parse(stdout) as AttwReport };
  } finally {
    await output.close();
    await rm(reportFile, { force: true });
  }
}

describe("publint and attw on every public package's tarball", () => {
  let tarballs: Map<string, string>;
  /** attw's working folder and reports. */
  let folder: string | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}package-lint-`));
    tarballs = await packPublicPackages(PACK_TIMEOUT_MS);
  }, PACK_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  describe.each(PUBLIC_PACKAGES)("%s", (name) => {
    it("passes publint (strict, suggestions included)", async () => {
      const bytes = new Uint8Array(await readFile(tarballs.get(name)!));
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer },
        level: "suggestion",
        strict: true,
      });
      const problems = messages.map(
        (message) =>
          `${message.type} ${message.code}: ${formatMessage(message, pkg, { color: false }) ?? formatMessagePath(message.path)}`,
      );
      expect(problems, `publint on ${name}`).toEqual([]);
    });

    it(
      `passes attw with the ${ATTW_PROFILE} profile, with types for every entry point`,
      async () => {
        const { exitCode, report } = await runAttw(tarballs.get(name)!, folder!);
        const counted = report.analysis.problems
          .filter((problem) => !ATTW_PROFILE_IGNORES.includes(problem.resolutionKind ?? ""))
          .map(
            (problem) =>
              `${problem.kind} for "${problem.entrypoint ?? "(package)"}" (${problem.resolutionKind ?? "every resolution"}): https://github.com/arethetypeswrong/arethetypeswrong.github.io/blob/main/docs/problems/${problem.kind}.md`,
          );
        expect(counted, `attw on ${name}`).toEqual([]);
        expect(exitCode, `attw's exit code on ${name}`).toBe(0);
        expect(report.analysis.types, `attw found no types in ${name}`).not.toBe(false);
        expect(Object.keys(report.analysis.entrypoints).length).toBeGreaterThan(0);
      },
      ATTW_TIMEOUT_MS + 10_000,
    );
  });
});
