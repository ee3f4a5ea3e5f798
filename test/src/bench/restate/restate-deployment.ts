import { setTimeout as sleep } from "node:timers/promises";
import type { BenchResources } from "../bench-resources.js";
import type { CpuTimesMs } from "../process-cpu.js";
import { threadCpuReader } from "../turns/thread-cpu.js";
import { startRestateEndpoint, type RestateEndpoint } from "./restate-endpoint-process.js";
import { startRestateServer, type RestateServer } from "./restate-server-process.js";
import { RestateTurnDriver } from "./restate-turn-driver.js";
import { RestateUnavailableError } from "./restate-unavailable-error.js";

/** CPU labels of the Restate side: the server (all its threads) and the endpoint process. */
export const restateCpuLabels = ["restate-server", "endpoint"] as const;

/** `restate-server`, the turn endpoint registered with it, and a driver. */
export interface RestateDeployment {
  readonly server: RestateServer;
  readonly endpoint: RestateEndpoint;
  readonly driver: RestateTurnDriver;
  /** CPU ms so far of `restate-server`, `endpoint` and `node` (this process). */
  readonly readCpu: () => Promise<CpuTimesMs>;
}

/** Options of {@link startRestateDeployment}. */
export interface RestateDeploymentOptions {
  /** Longest start of the server and of the endpoint, each, and of the registration, in ms. */
  readonly readyTimeoutMs: number;
  /** Longest wait for one turn, in ms. */
  readonly turnTimeoutMs: number;
  readonly resources: BenchResources;
}

/**
 * Starts the turn endpoint child process and `restate-server` (both tracked by
 * `resources`), registers the endpoint (`POST /deployments {"uri": …}` on the
 * admin API), and waits until the ingress runs a first `plain` turn (of key
 * `restate-probe`): the registration reaches the ingress a moment after the
 * admin API answered.
 *
 * @param options - deadlines and resources.
 * @returns the deployment; stop it with {@link stopRestateDeployment}.
 * @throws RestateUnavailableError when a part does not start or the
 *   registration fails within the deadline (what started is stopped).
 */
export async function startRestateDeployment(
  options: RestateDeploymentOptions,
): Promise<RestateDeployment> {
  const { resources } = options;
  const endpoint = resources.track(await startRestateEndpoint(options.readyTimeoutMs), (e) =>
    e.stop(),
  );
  let server: RestateServer | undefined;
  let driver: RestateTurnDriver | undefined;
  try {
    server = resources.track(await startRestateServer(options.readyTimeoutMs), (s) => s.stop());
    await register(server, endpoint, options.readyTimeoutMs);
    driver = resources.track(new RestateTurnDriver(server.ingressUrl, options.turnTimeoutMs), (d) =>
      Promise.resolve(d.close()),
    );
    await firstTurn(driver, server, options.readyTimeoutMs);
  } catch (error) {
    if (driver !== undefined) await resources.release(driver);
    if (server !== undefined) await resources.release(server);
    await resources.release(endpoint);
    throw error;
  }
  const readCpu = threadCpuReader({ "restate-server": server.pid, endpoint: endpoint.pid });
  return { server, endpoint, driver, readCpu };
}

/**
 * Stops a deployment: the driver, the server (its folder removed), the endpoint.
 *
 * @param deployment - from {@link startRestateDeployment}.
 * @param resources - the resources it was tracked by.
 */
export async function stopRestateDeployment(
  deployment: RestateDeployment,
  resources: BenchResources,
): Promise<void> {
  await resources.release(deployment.driver);
  await resources.release(deployment.server);
  await resources.release(deployment.endpoint);
}

async function register(
  server: RestateServer,
  endpoint: RestateEndpoint,
  timeoutMs: number,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${server.adminUrl}/deployments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uri: endpoint.url }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new RestateUnavailableError(
      `registering the endpoint failed: ${String(error)}`,
      server.outputTail(),
      { cause: error },
    );
  }
  const text = await response.text();
  if (response.status !== 200 && response.status !== 201)
    throw new RestateUnavailableError(
      `registering the endpoint: admin API answered ${response.status}: ${text.slice(0, 300)}`,
      server.outputTail(),
    );
}

async function firstTurn(
  driver: RestateTurnDriver,
  server: RestateServer,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      await driver.turn("restate-probe", "plain", "hello");
      return;
    } catch (error) {
      if (performance.now() > deadline)
        throw new RestateUnavailableError(
          `no turn through the ingress within ${timeoutMs} ms after registration: ${error instanceof Error ? error.message : String(error)}`,
          server.outputTail(),
          { cause: error },
        );
      await sleep(50);
    }
  }
}
