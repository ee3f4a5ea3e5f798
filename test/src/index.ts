/**
 * `@troupe/test`: integration, chaos and benchmark suites against real NATS
 * JetStream and Redis, and the harness that provides those servers (through
 * `@troupe/testkit`'s `startTestServers`, marked with the run's id).
 *
 * {@link startTestServers} gives a suite its own servers (containers when a
 * container runtime is reachable, local binaries otherwise); the vitest global
 * setup fails the run if any of them outlives its suite. See `harness/README.md`.
 *
 * @packageDocumentation
 */
export {
  findLeftoverTestServers,
  removeLeftoverTestServers,
  type LeftoverProcess,
  type LeftoverTestServers,
} from "./harness/find-leftover-test-servers.js";
export {
  startTestServers,
  type TestServers,
  type TestServersOptions,
} from "./harness/start-test-servers.js";
export {
  ensureTestRunId,
  testDataDirMarker,
  testDataDirPrefix,
  testRunIdVariable,
  testRunMarker,
} from "./harness/test-run-marker.js";
// The providers themselves (containers or local binaries) live in @troupe/testkit.
export {
  containerRuntimeProbeTimeoutMs,
  isContainerRuntimeReachable,
  resolveTestServersProvider,
  testServersVariable,
  type TestServersProvider,
} from "@troupe/testkit";
