/**
 * `@troupe/test`: integration, chaos and benchmark suites against real NATS
 * JetStream and Redis, and the harness that provides those servers.
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
  natsTestImage,
  redisTestImage,
  startContainerTestServers,
  type ContainerTestServers,
  type ContainerTestServersOptions,
} from "./harness/start-container-test-servers.js";
export {
  startLocalTestServers,
  type LocalTestServers,
  type LocalTestServersOptions,
} from "./harness/start-local-test-servers.js";
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
export {
  containerRuntimeProbeTimeoutMs,
  isContainerRuntimeReachable,
  resolveTestServersProvider,
  testServersVariable,
  type TestServersProvider,
} from "./harness/test-servers-provider.js";
