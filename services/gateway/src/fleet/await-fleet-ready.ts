import type { FleetIndex } from "../http/gateway-context.js";
import { GatewayError } from "../http/gateway-error.js";

/** How long a request waits by default for the fleet index to catch up: 10 000 ms. */
export const DEFAULT_FLEET_READY_TIMEOUT_MS = 10_000;

/**
 * Waits until `fleet` caught up with the events stream (its `ready()`), as
 * every route that answers from it does first (docs/decisions/0028).
 *
 * @param fleet - the index.
 * @param timeoutMs - how long to wait, in ms; default {@link DEFAULT_FLEET_READY_TIMEOUT_MS}.
 * @throws GatewayError 503 `unavailable` when it is not ready within `timeoutMs`
 *   (NATS unreachable, the streams missing, or a long history still being read).
 */
export async function awaitFleetReady(
  fleet: FleetIndex,
  timeoutMs = DEFAULT_FLEET_READY_TIMEOUT_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const outcome = await Promise.race([fleet.ready().then(() => "ready" as const), timedOut]);
    if (outcome === "timeout") {
      throw new GatewayError(
        503,
        "unavailable",
        `The gateway has not caught up with the deployment's events within ${timeoutMs} ms; ` +
          "try again (is NATS reachable, and has a host created the streams?).",
      );
    }
  } finally {
    clearTimeout(timer);
  }
}
