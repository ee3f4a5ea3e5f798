/** Where test servers come from: containers via testcontainers, or local binaries. */
export type TestServersProvider = "containers" | "local";

/**
 * Environment variable choosing the provider: `containers`, `local` or `auto`
 * (the default: containers when a container runtime is reachable). The vitest
 * global setup resolves `auto` once per run and writes the answer back here, so
 * test workers do not probe again.
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
 * @throws Error when the variable holds an unknown value.
 */
export async function resolveTestServersProvider(): Promise<TestServersProvider> {
  const chosen = process.env[testServersVariable] ?? "auto";
  if (chosen === "containers" || chosen === "local") return chosen;
  if (chosen !== "auto" && chosen !== "") {
    throw new Error(`${testServersVariable} must be containers, local or auto, not "${chosen}"`);
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
