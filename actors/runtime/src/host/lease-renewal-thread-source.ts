/** Slots before the first shard's: the main thread's heartbeat. */
export const HEADER_SLOTS = 1;
/** Slots per shard: token, writes floor, renewed at, verdict. */
export const SHARD_SLOTS = 4;

/**
 * The JavaScript the lease renewal thread runs (`new Worker(source, { eval: true })`,
 * decision 0047). It is a string, not a module, so that the same code runs from
 * the TypeScript sources (tests) and from `dist/` (installed packages) without a
 * loader: it only `require`s `node:worker_threads` and ioredis (by the path the
 * host resolved).
 *
 * The shared buffer (`BigInt64Array`) holds, at index 0, the time (ms since the
 * epoch) of the main thread's last heartbeat and, for each shard `s`, four slots
 * from `HEADER_SLOTS + s * SHARD_SLOTS`: the fencing token of the lease held
 * (0 = none), the writes floor, the time the latest renewal that held was sent,
 * and the verdict of the latest renewal that did not hold (0 none, 1 lost,
 * 2 writes_lost). The thread writes the last two; the main thread the others.
 * The buffer is the only record of which leases are held: each round renews
 * every shard whose token is set and has no verdict yet.
 *
 * The one message from the main thread: `{ type: "stop" }`.
 */
export const LEASE_RENEWAL_THREAD_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { Redis, Cluster } = require(workerData.ioredisPath);
const HEADER_SLOTS = ${HEADER_SLOTS};
const SHARD_SLOTS = ${SHARD_SLOTS};
const shared = new BigInt64Array(workerData.buffer);
const { owner, ttlMs, intervalMs, maxEventLoopBlockMs, leaseKeys } = workerData;
const retryStrategy = (times) => Math.min(50 * times, 1000);
const common = {
  maxRetriesPerRequest: 1,
  enableAutoPipelining: true,
  lazyConnect: false,
  connectionName: "troupe-lease-renewal",
  // A renewal that gets no answer within the TTL is of no use any more.
  commandTimeout: ttlMs,
  retryStrategy,
};
const redis =
  workerData.connection.kind === "cluster"
    ? new Cluster(workerData.connection.nodes, {
        ...workerData.connection.options,
        clusterRetryStrategy: retryStrategy,
        redisOptions: { ...workerData.connection.options.redisOptions, ...common },
      })
    : new Redis({ ...workerData.connection.options, ...common });
// Failed renewals show as leases not renewed; the main thread reports them.
redis.on("error", () => {});
redis.defineCommand("troupeRenewLease", { numberOfKeys: 1, lua: workerData.renewLua });
let stopped = false;
let wake;
parentPort.on("message", (message) => {
  if (message.type === "stop") {
    stopped = true;
    if (wake) wake();
  }
});
const slot = (shard, index) => HEADER_SLOTS + shard * SHARD_SLOTS + index;
async function renewAll() {
  const sentAt = Date.now();
  const heartbeat = Number(Atomics.load(shared, 0));
  // A main thread blocked longer than the bound gets no more renewals: its
  // leases lapse and other hosts take the shards.
  if (sentAt - heartbeat > maxEventLoopBlockMs) return;
  const renewals = [];
  for (let shard = 0; shard < leaseKeys.length; shard += 1) {
    const token = Atomics.load(shared, slot(shard, 0));
    if (token === 0n || Atomics.load(shared, slot(shard, 3)) !== 0n) continue;
    renewals.push(renew(shard, token, sentAt));
  }
  await Promise.all(renewals);
}
async function renew(shard, token, sentAt) {
  const floor = Atomics.load(shared, slot(shard, 1));
  let reply;
  try {
    reply = await redis.troupeRenewLease(leaseKeys[shard], owner, ttlMs, String(token), String(floor));
  } catch {
    return;
  }
  // The main thread may have dropped the lease (or taken a new grant) meanwhile.
  if (Atomics.load(shared, slot(shard, 0)) !== token) return;
  if (reply === 1) Atomics.store(shared, slot(shard, 2), BigInt(sentAt));
  else Atomics.store(shared, slot(shard, 3), reply === -3 ? 2n : 1n);
}
(async () => {
  while (!stopped) {
    await renewAll();
    if (stopped) break;
    await new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, intervalMs);
    });
  }
  await redis.quit().catch(() => redis.disconnect());
  parentPort.close();
})();
`;
