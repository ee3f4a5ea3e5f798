import { TroupeError } from "@troupe/protocol";

/** Where test servers come from: containers via testcontainers, or local binaries. */
export type TestServersProvider = "containers" | "local";

/**
 * Environment variable choosing the provider: `containers`, `local` or `auto`
 * (the default: containers when a container runtime is reachable). A test
 * runner's global setup may resolve `auto` once per run and write the answer
 * back here, so that test workers do not probe again (Troupe's own suites do).
 */
export const testServersVariable = "TROUPE_TEST_SERVERS";

/** How long the container runtime probe may take before it counts as absent, in ms. */
export const containerRuntimeProbeTimeoutMs = 750;

const cacheKey = Symbol.for("troupe.test.containerRuntimeReachable");
type ProbeCache = { [cacheKey]?: Promise<boolean> };

/**
 * Whether a container runtime (Docker, Podman, ...) is reachable, as seen by
 * testcontainers. Without one, testcontainers 11 fails in a few ms ("Could not
 * find a working container runtime strategy"); a runtime that does not answer
 * within {@link containerRuntimeProbeTimeoutMs} (after testcontainers is loaded)
 * counts as absent too. The answer
 * is cached for the life of the process.
 *
 * @returns `true` when containers can be started.
 */
export async function isContainerRuntimeReachable(): Promise<boolean> {
  const cache = globalThis as ProbeCache;
  cache[cacheKey] ??= probeContainerRuntime();
  return await cache[cacheKey];
}

/**
 * Resolves the provider from {@link testServersVariable}, probing the container
 * runtime when it is unset or `auto`.
 *
 * @returns The provider to use.
 * @throws TroupeError (`invalid_options`) when the variable holds another value.
 */
export async function resolveTestServersProvider(): Promise<TestServersProvider> {
  const chosen = process.env[testServersVariable] ?? "auto";
  if (chosen === "containers" || chosen === "local") return chosen;
  if (chosen !== "auto" && chosen !== "") {
    throw new TroupeError(
      "invalid_options",
      `${testServersVariable} must be containers, local or auto, not "${chosen}"`,
      { details: { [testServersVariable]: chosen } },
    );
  }
  return (await isContainerRuntimeReachable()) ? "containers" : "local";
}

async function probeContainerRuntime(): Promise<boolean> {
  // Loading testcontainers (~300 ms) is not part of the bounded probe: a slow
  // import on a cold disk must not hide a runtime that is there.
  let getContainerRuntimeClient: () => Promise<unknown>;
  try {
    ({ getContainerRuntimeClient } = await import("testcontainers"));
  } catch {
    return false;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), containerRuntimeProbeTimeoutMs);
  });
  const probe = getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
