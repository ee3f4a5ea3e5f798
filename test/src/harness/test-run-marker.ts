import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Every data folder of a test server starts with this, in `os.tmpdir()`. */
export const testDataDirMarker = "troupe-test-";

/**
 * Environment variable holding the id of the current test run. The vitest
 * global setup sets it once per run, and the test workers inherit it, so that
 * the teardown check only looks at servers of this run, not those of a run in
 * another terminal.
 */
export const testRunIdVariable = "TROUPE_TEST_RUN_ID";

/**
 * Sets {@link testRunIdVariable} to a fresh id unless it is already set.
 *
 * @returns The run id in effect.
 */
export function ensureTestRunId(): string {
  const existing = process.env[testRunIdVariable];
  if (existing !== undefined && existing !== "") return existing;
  const runId = randomUUID().slice(0, 8);
  process.env[testRunIdVariable] = runId;
  return runId;
}

/**
 * The folder-name prefix shared by every test server of the current run:
 * `troupe-test-<run id>-` (`troupe-test-standalone-` outside a vitest run).
 * It also appears on each server's command line, through its config path.
 *
 * @returns The prefix.
 */
export function testRunMarker(): string {
  const runId = process.env[testRunIdVariable];
  return `${testDataDirMarker}${runId === undefined || runId === "" ? "standalone" : runId}-`;
}

/**
 * Data-folder prefix for one kind of test server, for example
 * `troupe-test-1a2b3c4d-nats-`.
 *
 * @param serverKind - `"nats"` or `"redis"`.
 * @returns The prefix to pass as `dataDirPrefix`.
 */
export function testDataDirPrefix(serverKind: "nats" | "redis"): string {
  return `${testRunMarker()}${serverKind}-`;
}

/**
 * A folder in `os.tmpdir()` that the test files of the current run share (the
 * packed tarballs, say): `troupe-run-<run id>-<name>`, removed by the global
 * teardown (a name without {@link testDataDirMarker}, so it does not count as
 * a leftover server folder). `undefined` outside a vitest run.
 *
 * @param name - what the folder holds, e.g. `"tarballs"`.
 */
export function runSharedFolder(name: string): string | undefined {
  const runId = process.env[testRunIdVariable];
  return runId === undefined || runId === ""
    ? undefined
    : join(tmpdir(), `troupe-run-${runId}-${name}`);
}
