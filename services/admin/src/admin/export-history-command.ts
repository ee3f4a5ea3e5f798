import { RedisKeys, streamNames } from "@troupe/protocol/internal";
import { RedisSnapshotStore } from "@troupe/runtime/internal";
import { exportActorHistory } from "@troupe/runtime";
import { parseAddress, type HistoryAgent, type TroupeHistory } from "@troupe/protocol";
import { DEFAULT_DEPLOYMENT_PREFIX } from "./admin-deps.js";
import { resolveKinds, type ReplayActorCommandOptions } from "./replay-actor-command.js";

/** Options of {@link exportHistoryCommand}: those of `replayActorCommand`, plus the document's producer. */
export interface ExportHistoryCommandOptions extends ReplayActorCommandOptions {
  /** Follow the actors the root's outbox reached (session → run → tool calls → subagents). */
  readonly tree?: boolean;
  /** Written as `producer.troupe`: the Troupe release that exported it. */
  readonly troupeVersion?: string;
  /** Written as `producer.agents`: the agents the hosts serve. */
  readonly agents?: readonly HistoryAgent[];
  /** The time, Unix ms, for `exportedAtMs`; default `Date.now`. */
  readonly nowMs?: () => number;
}

/**
 * `troupe history export`: the recorded history of an actor, or with `tree` of
 * its whole conversation, from the deployment's journal and snapshot store
 * (`exportActorHistory` from `@troupe/runtime`). Read-only.
 *
 * @param options - Redis, JetStream manager, prefix (default `"troupe"`), shard
 *   count, the kinds (a factory needs `nats`), `tree`, and the producer fields.
 * @param address - `kind/id`, e.g. `session/demo-1`.
 * @returns the history; write it with `formatHistory(history, "json" | "ndjson")`.
 * @throws InvalidAddressError for a malformed address (field `address`) or a
 *   kind the given kinds do not define (field `kind`).
 * @throws ActorNotFoundError when the actor has no stored snapshot.
 * @throws HistoryNotReproducibleError when a journal does not reproduce its
 *   actor's stored generations (actor, generation and path named).
 * @example
 * const history = await exportHistoryCommand(
 *   { redis, jsm, nats, shardCount: 64, kinds: agentKinds({ agents }), tree: true },
 *   "session/demo-1",
 * );
 */
export async function exportHistoryCommand(
  options: ExportHistoryCommandOptions,
  address: string,
): Promise<TroupeHistory> {
  const parsed = parseAddress(address);
  const prefix = options.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;
  const keys = new RedisKeys(prefix, options.shardCount);
  const streams = streamNames(prefix);
  const troupe = options.troupeVersion;
  const agents = options.agents;
  return await exportActorHistory(
    {
      js: options.jsm.jetstream(),
      jsm: options.jsm,
      streams,
      shardCount: options.shardCount,
      ...(options.earlierShardCounts === undefined
        ? {}
        : { earlierShardCounts: options.earlierShardCounts }),
      snapshots: new RedisSnapshotStore(options.redis, keys),
      kinds: resolveKinds(options, keys, streams),
      ...(troupe === undefined && agents === undefined
        ? {}
        : {
            producer: {
              ...(troupe === undefined ? {} : { troupe }),
              ...(agents === undefined ? {} : { agents }),
            },
          }),
      ...(options.nowMs === undefined ? {} : { nowMs: options.nowMs }),
    },
    parsed,
    { tree: options.tree ?? false },
  );
}
