import { TroupeError } from "@troupe/protocol";
import type { DevState } from "@troupe/host/internal";

/** `troupe dev` was started while another `troupe dev` runs (one per Troupe home). */
export class DevAlreadyRunningError extends TroupeError {
  /**
   * @param pid - process id of the running `troupe dev`.
   * @param state - its state file, once it has written one (it is still starting otherwise).
   */
  constructor(
    readonly pid: number,
    readonly state?: DevState,
  ) {
    super(
      "internal",
      `troupe dev is already running (pid ${pid}` +
        (state === undefined
          ? ", still starting"
          : `, NATS ${state.natsUrl}, Redis ${state.redisUrl}`) +
        `). Stop it with Ctrl-C in its terminal or with \`troupe stop\`, or set TROUPE_HOME to run another.`,
      { retryable: false, details: { pid } },
    );
    this.name = "DevAlreadyRunningError";
  }
}
