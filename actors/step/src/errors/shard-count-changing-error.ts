import { TroupeError } from "@troupe/protocol";

/**
 * A change of the deployment's shard count is under way (`changeShardCount`,
 * `troupe shards resize`; docs/decisions/0035): a host refuses to
 * start until it ends (then it must be started with the new count), and a
 * second change to another count is refused. Not retryable at once; retry
 * after the change.
 */
export class ShardCountChangingError extends TroupeError {
  /**
   * @param from - the deployment's shard count now.
   * @param to - the count the change under way moves to.
   * @param action - what was refused, e.g. `"this host cannot start"`.
   */
  constructor(
    readonly from: number,
    readonly to: number,
    action: string,
  ) {
    super(
      "shard_count_changing",
      `the deployment's shard count is being changed from ${from} to ${to}; ${action} ` +
        `(finish it with \`troupe shards resize --to ${to}\`, then start hosts with shardCount ${to})`,
      { retryable: false, details: { from, to } },
    );
    this.name = "ShardCountChangingError";
  }
}
