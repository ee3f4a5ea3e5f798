import { TroupeError } from "@troupe/protocol";

/** `troupe stop` found no running `troupe dev` in this Troupe home. */
export class DevNotRunningError extends TroupeError {
  /** @param statePath - the state file looked at (`$TROUPE_HOME/dev.json`). */
  constructor(readonly statePath: string) {
    super(
      "unavailable",
      `no troupe dev is running for ${statePath} (a troupe dev started with another TROUPE_HOME ` +
        "is stopped with that TROUPE_HOME set)",
      { retryable: false, details: { statePath } },
    );
    this.name = "DevNotRunningError";
  }
}
