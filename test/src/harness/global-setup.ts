/**
 * vitest global setup of the integration suites (configured in
 * `test/vitest.config.ts`).
 *
 * - `setup`: gives the run an id (`TROUPE_TEST_RUN_ID`, inherited by the test
 *   workers) so that every test server's data folder is named
 *   `troupe-test-<run id>-…`, and resolves once whether containers or local
 *   binaries provide the servers (`TROUPE_TEST_SERVERS`). With child code from
 *   `dist/` (the default, `child-code.ts`) it then builds the packages once
 *   for the whole run (`turbo run build`, cached: a second run with no change
 *   takes a few seconds), points the `troupe` command at its build
 *   (`TROUPE_CLI_MODE=dist`), and packs the public packages for the packaging
 *   suites before any worker starts: their `prepack` empties and refills each
 *   `dist/`, which must not happen while other files' children run from it.
 * - `teardown`: fails the run (exit code 1) if any `nats-server` or
 *   `redis-server` started by this run is still running, or any of its data
 *   folders remains, then removes them; removes the run's shared tarballs
 *   (`packPublicPackages`). (A teardown that throws is only logged
 *   by vitest 4 and leaves the exit code at 0, hence `process.exitCode`.)
 */
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  findLeftoverTestServers,
  removeLeftoverTestServers,
} from "./find-leftover-test-servers.js";
import { childCode, childCodeVariable } from "./child-code.js";
import { ensureTestRunId, runSharedFolder, testRunMarker } from "./test-run-marker.js";
import { packPublicPackages } from "../packaging/pack-workspaces.js";
import { resolveTestServersProvider, testServersVariable } from "@troupe/testkit";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The build of every package the suites' children run, cold (about 90 s on 2 cores) or cached. */
const BUILD_TIMEOUT_MS = 10 * 60_000;
const PACK_TIMEOUT_MS = 5 * 60_000;

/** Names the run, picks the server provider once for all workers, and builds the child code. */
export async function setup(): Promise<void> {
  ensureTestRunId();
  process.env[testServersVariable] = await resolveTestServersProvider();
  process.env[childCodeVariable] = childCode();
  // V8's compile cache for the many child processes (Node.js 22.1 or later;
  // ignored before): each loads the same few thousand modules.
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "troupe-node-compile-cache");
  if (childCode() === "dist") {
    // `npm run test:repeat -- … --parallel K` built once for all its rounds.
    if (process.env.TROUPE_TEST_BUILT === "1")
      console.log("global setup: child code built by the caller");
    else await buildChildCode();
    process.env.TROUPE_CLI_MODE = "dist";
    await packPublicPackages(PACK_TIMEOUT_MS);
  }
}

/** `turbo run build` of `@troupe/test` and every package it depends on. */
async function buildChildCode(): Promise<void> {
  const startedAt = performance.now();
  try {
    await promisify(execFile)(
      join(repositoryRoot, "node_modules", ".bin", "turbo"),
      ["run", "build", "--filter=@troupe/test...", "--output-logs=errors-only"],
      { cwd: repositoryRoot, timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `the build of the suites' child code failed (\`npx turbo run build --filter=@troupe/test...\`; ` +
        `${childCodeVariable}=source runs on the sources instead):\n${stdout}\n${stderr}`,
      { cause: error },
    );
  }
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`global setup: child code built into dist/ in ${seconds} s`);
}

/** Fails the run when test servers or their folders outlived the tests. */
export async function teardown(): Promise<void> {
  const tarballs = runSharedFolder("tarballs");
  if (tarballs !== undefined) await rm(tarballs, { recursive: true, force: true });
  const marker = testRunMarker();
  const leftovers = await findLeftoverTestServers(marker);
  if (leftovers.processes.length === 0 && leftovers.folders.length === 0) return;
  const lines = [
    `Test servers of this run (${marker}*) were not stopped. Stop them with`,
    "`await using servers = await startTestServers()` or `afterAll(() => servers.stop())`.",
    ...leftovers.processes.map(({ pid, commandLine }) => `  process ${pid}: ${commandLine}`),
    ...leftovers.folders.map((folder) => `  folder: ${folder}`),
  ];
  console.error(lines.join("\n"));
  await removeLeftoverTestServers(leftovers);
  process.exitCode = 1;
}
