import { TroupeError } from "@troupe/protocol";

/**
 * The host no longer holds the shard's lease (it lapsed or another host took it);
 * the write was refused by the fencing-token check. Not retryable on this host:
 * the shard's new owner redoes the work.
 */
export class LeaseLostError extends TroupeError {
  constructor(
    readonly shard: number,
    readonly token: number,
  ) {
    super(
      "lease_lost",
      `lease of shard ${shard} (fencing token ${token}) is no longer held by this host`,
      {
        retryable: false,
        details: { shard, token },
      },
    );
    this.name = "LeaseLostError";
  }
}
