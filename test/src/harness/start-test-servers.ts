import {
  startTestServers as startServers,
  type TestServers,
  type TestServersOptions,
} from "@troupe/testkit";
import { testRunIdVariable, testRunMarker } from "./test-run-marker.js";

export type { TestServers, TestServersOptions };

/**
 * `@troupe/testkit`'s `startTestServers` (containers when a container runtime
 * answers, local binaries otherwise; the one copy of that choice, issue #14)
 * with the marks of the current test run: local data folders named
 * `troupe-test-<run id>-<nats|redis>-…` and containers labelled
 * `troupe.test-run=<run id>`, so the global teardown finds any server a suite
 * forgot to stop. See `harness/README.md`.
 *
 * @param options - See `TestServersOptions` (`dataDirPrefix` and
 *   `containerLabels` are set here unless given).
 * @returns The running servers; `await using` stops them.
 * @throws as `startTestServers` of `@troupe/testkit`.
 *
 * @example
 * ```ts
 * await using servers = await startTestServers();
 * ```
 */
export async function startTestServers(options: TestServersOptions = {}): Promise<TestServers> {
  return await startServers({
    dataDirPrefix: testRunMarker(),
    containerLabels: { "troupe.test-run": process.env[testRunIdVariable] ?? "standalone" },
    ...options,
  });
}
