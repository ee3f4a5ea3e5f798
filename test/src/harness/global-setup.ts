/**
 * vitest global setup of the integration suites (configured in
 * `test/vitest.config.ts`).
 *
 * - `setup`: gives the run an id (`TROUPE_TEST_RUN_ID`, inherited by the test
 *   workers) so that every test server's data folder is named
 *   `troupe-test-<run id>-…`, and resolves once whether containers or local
 *   binaries provide the servers (`TROUPE_TEST_SERVERS`).
 * - `teardown`: fails the run (exit code 1) if any `nats-server` or
 *   `redis-server` started by this run is still running, or any of its data
 *   folders remains, then removes them; removes the run's shared tarballs
 *   (`packPublicPackages`). (A teardown that throws is only logged
 *   by vitest 4 and leaves the exit code at 0, hence `process.exitCode`.)
 */
import { rm } from "node:fs/promises";
import {
  findLeftoverTestServers,
  removeLeftoverTestServers,
} from "./find-leftover-test-servers.js";
import { ensureTestRunId, runSharedFolder, testRunMarker } from "./test-run-marker.js";
import { resolveTestServersProvider, testServersVariable } from "@troupe/testkit";

/** Names the run and picks the server provider once for all workers. */
export async function setup(): Promise<void> {
  ensureTestRunId();
  process.env[testServersVariable] = await resolveTestServersProvider();
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
