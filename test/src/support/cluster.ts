import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { RedisKeys, streamNames, type StreamNames } from "@troupe/protocol/internal";
import {
  parseTimerMember,
  RedisLeaseStore,
  RedisSnapshotStore,
  shardConsumerName,
} from "@troupe/runtime/internal";
import { type ActorKindDefinition, type ReplayReport, replayActor } from "@troupe/runtime";
import { parseAddress, shardOf } from "@troupe/protocol";
import { Redis } from "ioredis";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";
import { startHostProcess, type HostProcess, type HostProcessOptions } from "./host-process.js";
import { sendToInbox } from "./send-to-inbox.js";
import { waitFor } from "./wait-for.js";

/** A test deployment: real servers, clients for the test itself, and host child processes. */
export interface Cluster extends AsyncDisposable {
  readonly servers: TestServers;
  readonly nats: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly redis: Redis;
  readonly streams: StreamNames;
  readonly snapshots: RedisSnapshotStore;
  readonly leases: RedisLeaseStore;
  readonly shardCount: number;
  readonly hosts: HostProcess[];
  /** Starts one more host process with the cluster's settings plus `settings`. */
  startHost(
    settings?: Record<string, unknown>,
    options?: Partial<HostProcessOptions>,
  ): Promise<HostProcess>;
  /** Publishes one message to an actor's public inbox subject with a JetStream ack. */
  send(
    actor: string,
    type: string,
    payload: Record<string, unknown>,
    messageId?: string,
  ): Promise<void>;
  /** A bare NATS publish (no JetStream ack) of a JSON body to `troupe.session.<sessionId>.in`, flushed. */
  publishToSession(sessionId: string, message: Record<string, unknown>): Promise<void>;
  /** Starts a host process running `entry` and waits until it alone owns every shard. */
  startOnlyHost(entry: string): Promise<HostProcess>;
  /** Sends `counter.increment { by }` to every actor (in parallel, each with a stream ack). */
  incrementAll(actors: readonly string[], by: number): Promise<void>;
  /** Waits until every counter's stored count equals `count`. */
  waitForCounts(actors: readonly string[], count: number, timeoutMs: number): Promise<void>;
  /** The stored context of an actor (undefined if never written). */
  context<T>(actor: string): Promise<T | undefined>;
  /** Lease owner (host id) per shard. */
  owners(): Promise<(string | undefined)[]>;
  /**
   * Waits until every shard is leased by one of `hostIds` and each owns its fair
   * share (within one of shardCount / hosts): hand-overs have settled.
   */
  waitForBalance(hostIds: readonly string[], timeoutMs: number): Promise<void>;
  /** Waits until every shard is leased by one of `hostIds` and each of them owns at least one. */
  waitForOwners(hostIds: readonly string[], timeoutMs: number): Promise<void>;
  /**
   * Waits until nothing more can reach `actor`: no timer of it armed in its
   * shard's timer set, and its shard consumer holding no message undelivered
   * or unacknowledged. After that, a message it should not have got (a second
   * firing, a duplicate) would already be in its journal: what an assertion
   * of "exactly once" needs, without a pause guessed to be long enough.
   * `timers: false` skips the timer check (an actor that keeps a timer armed).
   */
  waitForSettled(actor: string, timeoutMs: number, options?: { timers?: boolean }): Promise<void>;
  /** Replays an actor's journal. */
  replay(actor: string, definition: ActorKindDefinition): Promise<ReplayReport>;
  stop(): Promise<void>;
}

/**
 * Starts servers and clients for a suite; hosts are started with {@link Cluster.startHost}.
 *
 * @param options - shard count (default 64) and host settings shared by every host.
 * @returns the cluster; stop it in `afterAll` or with `await using`.
 */
export async function startCluster(
  options: { shardCount?: number; hostSettings?: Record<string, unknown> } = {},
): Promise<Cluster> {
  const shardCount = options.shardCount ?? 64;
  const servers = await startTestServers({ shardCount });
  const nats = await connect({ servers: servers.natsUrl });
  const redis = new Redis(servers.redisUrl, { enableAutoPipelining: true });
  const keys = new RedisKeys("troupe", shardCount);
  const hosts: HostProcess[] = [];
  const streams = streamNames("troupe");
  // Publish acks and API requests wait up to 30 s (nats.js's default is 5 s):
  // a busy machine answers late, and the tests assert outcomes, not latency.
  const js = jetstream(nats, { timeout: 30_000 });
  const jsm = await jetstreamManager(nats);
  const snapshots = new RedisSnapshotStore(redis, keys);
  const leases = new RedisLeaseStore(redis, keys);
  const cluster: Cluster = {
    servers,
    nats,
    js,
    jsm,
    redis,
    streams,
    snapshots,
    leases,
    shardCount,
    hosts,
    async startHost(settings = {}, hostOptions = {}) {
      const host = await startHostProcess({
        natsUrl: servers.natsUrl,
        redisUrl: servers.redisUrl,
        settings: { shardCount, ...options.hostSettings, ...settings },
        ...hostOptions,
      });
      hosts.push(host);
      return host;
    },
    async send(actor, type, payload, messageId) {
      await sendToInbox(js, actor, type, payload, messageId);
    },
    async publishToSession(sessionId, message) {
      nats.publish(
        `troupe.session.${sessionId}.in`,
        new TextEncoder().encode(JSON.stringify(message)),
      );
      await nats.flush();
    },
    async startOnlyHost(entry) {
      const host = await cluster.startHost({}, { entry });
      await cluster.waitForOwners([host.hostId], 20_000);
      return host;
    },
    async incrementAll(actors, by) {
      await Promise.all(actors.map((actor) => cluster.send(actor, "counter.increment", { by })));
    },
    async waitForCounts(actors, count, timeoutMs) {
      await waitFor(
        async () => {
          const contexts = await Promise.all(
            actors.map((actor) => cluster.context<{ count: number }>(actor)),
          );
          return contexts.every((context) => context?.count === count);
        },
        { timeoutMs, description: `every actor at count ${count}` },
      );
    },
    async context<T>(actor: string) {
      const stored = await snapshots.load(actor);
      return (stored?.record.state as { context: T } | undefined)?.context;
    },
    async owners() {
      return (await leases.holders(shardCount)).map((holder) => holder.owner);
    },
    async waitForOwners(hostIds, timeoutMs) {
      await waitFor(
        async () => {
          const owners = await cluster.owners();
          return (
            owners.every((owner) => owner !== undefined && hostIds.includes(owner)) &&
            hostIds.every((id) => owners.includes(id))
          );
        },
        { timeoutMs, description: `every shard leased by ${hostIds.join(", ")}` },
      );
    },
    async waitForBalance(hostIds, timeoutMs) {
      const fair = shardCount / hostIds.length;
      await waitFor(
        async () => {
          const owners = await cluster.owners();
          return (
            owners.every((owner) => owner !== undefined && hostIds.includes(owner)) &&
            hostIds.every(
              (id) => Math.abs(owners.filter((owner) => owner === id).length - fair) < 1,
            )
          );
        },
        { timeoutMs, description: `a settled fair share of shards for ${hostIds.join(", ")}` },
      );
    },
    async waitForSettled(actor, timeoutMs, options = {}) {
      const shard = shardOf(parseAddress(actor), shardCount);
      await waitFor(
        async () => {
          const timers =
            options.timers === false ? [] : await redis.zrange(keys.timers(shard), "0", "-1");
          if (timers.some((member) => parseTimerMember(shard, member).address === actor)) {
            return false;
          }
          const info = await jsm.consumers.info(streams.inbox, shardConsumerName("troupe", shard));
          return info.num_pending === 0 && info.num_ack_pending === 0;
        },
        { timeoutMs, description: `${actor} settled (no timer armed, its shard's inbox drained)` },
      );
    },
    async replay(actor, definition) {
      return replayActor(
        { js, jsm, streams, shardCount, snapshots, definition },
        parseAddress(actor),
      );
    },
    async stop() {
      await Promise.allSettled(hosts.map((host) => host.stop()));
      await nats.close().catch(() => undefined);
      redis.disconnect();
      await servers.stop();
    },
    async [Symbol.asyncDispose]() {
      await cluster.stop();
    },
  };
  return cluster;
}
