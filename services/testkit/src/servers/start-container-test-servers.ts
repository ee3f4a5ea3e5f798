import { renderNatsServerConfig } from "@troupe/dev/internal";
import { TroupeError } from "@troupe/protocol";
import type { StartedTestContainer } from "testcontainers";

/** Image of the NATS containers; 2.10 is the oldest line with every JetStream feature Troupe uses. */
export const natsTestImage = "nats:2.10";
/** Image of the Redis containers. */
export const redisTestImage = "redis:7";

/** Options of {@link startContainerTestServers}. */
export interface ContainerTestServersOptions {
  /** Inbox shard count of the NATS subject mapping. */
  readonly shardCount: number;
  /** Run Redis with an append-only file fsynced every second. */
  readonly redisAppendOnly: boolean;
  /** How long each container may take to become ready, in ms. */
  readonly startupTimeoutMs: number;
  /** Labels of both containers (e.g. a test run's id, to find leftovers); default `{ "troupe.test": "true" }`. */
  readonly labels?: Readonly<Record<string, string>> | undefined;
}

/** The two containers of one suite. */
export interface ContainerTestServers {
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** Stops and removes both containers. */
  stop(): Promise<void>;
}

/**
 * Starts a `nats:2.10` container with Troupe's generated config (copied in before
 * start; JetStream ready when `/healthz?js-enabled-only=true` answers 200) and a
 * `redis:7` container (ready when it logs "Ready to accept connections"), both on
 * ports mapped by the runtime. Containers carry `options.labels`; testcontainers'
 * reaper removes them if this process dies. testcontainers is loaded with a
 * dynamic `import()`: it is an optional peer dependency of `@troupe/testkit`.
 *
 * @param options - See {@link ContainerTestServersOptions}.
 * @returns The client URLs and a stop function.
 * @throws TroupeError (`unavailable`) when the optional `testcontainers`
 *   package is not installed.
 * @throws The testcontainers error when a container does not start (the detection
 *   moved here from the repository's test harness; decision 0023).
 */
export async function startContainerTestServers(
  options: ContainerTestServersOptions,
): Promise<ContainerTestServers> {
  const { GenericContainer, Wait } = await loadTestcontainers();
  const labels = { ...(options.labels ?? { "troupe.test": "true" }) };
  const config = renderNatsServerConfig({
    host: "0.0.0.0",
    port: 4222,
    monitorPort: 8222,
    storeDir: "/data",
    shardCount: options.shardCount,
  });
  const persistence = options.redisAppendOnly
    ? ["--appendonly", "yes", "--appendfsync", "everysec"]
    : ["--appendonly", "no"];

  const [nats, redis] = await Promise.allSettled([
    new GenericContainer(natsTestImage)
      .withLabels(labels)
      .withCopyContentToContainer([{ content: config, target: "/etc/nats/troupe.conf" }])
      .withCommand(["--config", "/etc/nats/troupe.conf"])
      .withExposedPorts(4222, 8222)
      .withWaitStrategy(Wait.forHttp("/healthz?js-enabled-only=true", 8222).forStatusCode(200))
      .withStartupTimeout(options.startupTimeoutMs)
      .start(),
    new GenericContainer(redisTestImage)
      .withLabels(labels)
      .withCommand(["redis-server", "--save", "", ...persistence])
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forLogMessage("Ready to accept connections"))
      .withStartupTimeout(options.startupTimeoutMs)
      .start(),
  ]);
  const started = [nats, redis]
    .filter((result) => result.status === "fulfilled")
    .map((result) => result.value);
  const stop = async (): Promise<void> => {
    await Promise.all(started.map(async (container) => await container.stop()));
  };
  if (nats.status === "rejected" || redis.status === "rejected") {
    await stop();
    throw nats.status === "rejected" ? nats.reason : (redis as PromiseRejectedResult).reason;
  }
  return {
    natsUrl: `nats://${hostPort(nats.value, 4222)}`,
    redisUrl: `redis://${hostPort(redis.value, 6379)}`,
    stop,
  };
}

/** The optional peer dependency, or a clear error saying how to get it. */
async function loadTestcontainers(): Promise<typeof import("testcontainers")> {
  try {
    return await import("testcontainers");
  } catch (error) {
    throw new TroupeError(
      "unavailable",
      "Test servers in containers need the optional package testcontainers: " +
        "npm install --save-dev testcontainers@^11.14 (or use the local binaries: TROUPE_TEST_SERVERS=local)",
      { cause: error },
    );
  }
}

function hostPort(container: StartedTestContainer, port: number): string {
  const host = container.getHost();
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return `${urlHost}:${container.getMappedPort(port)}`;
}
