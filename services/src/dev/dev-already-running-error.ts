import { TroupeError } from "@troupe/protocol";
import type { DevState } from "./dev-state.js";

/** `troupe dev` was started while another `troupe dev` runs (one per Troupe home). */
export class DevAlreadyRunningError extends TroupeError {
  /** @param state - the running one's state file. */
  constructor(readonly state: DevState) {
    super(
      "internal",
      `troupe dev is already running (pid ${state.pid}, NATS ${state.natsUrl}, Redis ${state.redisUrl}). ` +
        `Stop it with Ctrl-C in its terminal (or kill ${state.pid}), or set TROUPE_HOME to run another.`,
      { retryable: false, details: { pid: state.pid } },
    );
    this.name = "DevAlreadyRunningError";
  }
}
