import { inboxSubjectMapping } from "@troupe/protocol";
import { changeShardCount, type ShardCountChangeStep } from "@troupe/runtime";
import { withAdmin } from "../with-admin.js";
import type { ConnectionFlags } from "@troupe/host/internal";

/** Flags of `troupe shards resize`. */
export interface ShardsResizeOptions extends ConnectionFlags {
  readonly to: number;
  readonly pauseTimeout: number;
  readonly mappingTimeout: number;
}

/**
 * `troupe shards resize --to <count>`: runs `changeShardCount` and tells the
 * operator, on stderr, what to do at each step (reload nats-server with the
 * printed mapping; then start hosts with the new count). Prints the result as
 * JSON on stdout.
 *
 * @throws ShardCountChangingError, TroupeError `invalid_options` / `timeout` /
 *   `lease_lost` (see `changeShardCount`); NatsUnreachableError /
 *   RedisUnreachableError naming the URL.
 */
export async function shardsResizeAction(options: ShardsResizeOptions): Promise<void> {
  await withAdmin(options, async (admin) => {
    const say = (line: string) => process.stderr.write(`${line}\n`);
    const mapping = inboxSubjectMapping(options.to);
    const onStep = (step: ShardCountChangeStep, details: Record<string, unknown>) => {
      switch (step) {
        case "pausing":
          say(
            `shard count ${String(details.from)} → ${options.to}: hosts are releasing their shards (publishing goes on)…`,
          );
          break;
        case "paused":
          say("every shard is paused.");
          say(
            "now reload every nats-server with this mapping (replace the old one, then SIGHUP or `nats-server --signal reload`):",
          );
          say(
            `  mappings { ${JSON.stringify(mapping.source)}: ${JSON.stringify(mapping.destination)} }`,
          );
          break;
        case "waiting_for_mapping":
          say(`waiting for the new mapping (up to ${options.mappingTimeout} ms)…`);
          break;
        case "marker_published":
          say(`new mapping seen; marker at inbox sequence ${String(details.markerSeq)}.`);
          break;
        case "moved_shard_data":
          say(
            `moved ${String(details.movedTimers)} timers and ${String(details.movedDirtyActors)} dirty actors; new shards read the inbox from ${String(details.catchUpFrom)}.`,
          );
          break;
        case "done":
          say(
            `done: start hosts with shardCount ${options.to} (TROUPE_SHARD_COUNT / --shards), then stop the old ones (they hold no shard).`,
          );
          break;
      }
    };
    const change = await changeShardCount({
      nats: admin.nats,
      redis: admin.redis,
      prefix: admin.settings.prefix,
      to: options.to,
      onStep,
      pauseTimeoutMs: options.pauseTimeout,
      mappingTimeoutMs: options.mappingTimeout,
    });
    process.stdout.write(`${JSON.stringify(change)}\n`);
  });
}
