import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import type { RedisKeys } from "@troupe/protocol/internal";
import { type RedisConnection, RENEW_LEASE_LUA, type LeaseRenewal } from "@troupe/stores/internal";
import {
  HEADER_SLOTS,
  LEASE_RENEWAL_THREAD_SOURCE,
  SHARD_SLOTS,
} from "./lease-renewal-thread-source.js";

/** Options of {@link LeaseRenewalThread.start}. */
export interface LeaseRenewalThreadOptions {
  /** The host's Redis connection: the thread opens its own with the same options. */
  readonly redis: RedisConnection;
  /** The host id (the leases' owner). */
  readonly owner: string;
  /** The deployment's key layout: its shard count and each shard's lease key. */
  readonly keys: RedisKeys;
  /** Lease TTL in ms, as the host's `leaseTtlMs`. */
  readonly ttlMs: number;
  /** Renewal period in ms, as the host's `leaseRenewIntervalMs`. */
  readonly intervalMs: number;
  /**
   * How long the thread keeps renewing while the main thread sends no
   * heartbeat (its event loop is blocked), in ms; the host's `maxEventLoopBlockMs`.
   */
  readonly maxEventLoopBlockMs: number;
  readonly logger: Logger;
}

/** How the thread's connection is made again from the host's (structured-clonable). */
type ConnectionRecipe =
  | { readonly kind: "standalone"; readonly options: Record<string, unknown> }
  | {
      readonly kind: "cluster";
      readonly nodes: unknown[];
      readonly options: Record<string, unknown> & { redisOptions?: Record<string, unknown> };
    };

/**
 * Renews a host's shard leases on a worker thread with its own Redis
 * connection (docs/decisions/0047-lease-renewal-off-the-event-loop.md),
 * so that synchronous work on the main thread (a large prompt, a user's tool
 * that computes) longer than the lease TTL does not cost the host its leases.
 * It runs the same renewal script as `RedisLeaseStore.renew`, with the writes
 * floor the main thread last published, every `intervalMs`.
 *
 * The two threads share one buffer: the main thread writes its heartbeat
 * ({@link heartbeat}, every renewal period) and each lease's token and writes
 * floor; the thread writes when a renewal that held was sent and the verdict of
 * one that did not. A main thread that sends no heartbeat for
 * `maxEventLoopBlockMs` gets no more renewals: a host hung for good (an
 * endless loop) lets its shards go, as a dead one does.
 *
 * Safety does not rest on this thread: every commit is checked against the
 * lease's owner and fencing token in Redis, so a lease the thread kept while
 * the main thread was blocked is one nobody else could hold.
 */
export class LeaseRenewalThread {
  readonly #worker: Worker;
  readonly #shared: BigInt64Array;
  readonly #logger: Logger;
  #alive = true;
  readonly #exited: Promise<void>;

  private constructor(worker: Worker, shared: BigInt64Array, logger: Logger) {
    this.#worker = worker;
    this.#shared = shared;
    this.#logger = logger;
    this.#exited = new Promise((resolve) => {
      worker.once("exit", () => {
        this.#alive = false;
        resolve();
      });
    });
    worker.on("error", (error) => {
      this.#alive = false;
      logger.error(
        { err: error },
        "the lease renewal thread failed; renewing leases on the main thread",
      );
    });
  }

  /**
   * Starts the thread.
   *
   * @returns the thread, or undefined when the connection's options cannot be
   *   copied to another thread (the host then renews on its main thread and
   *   logs why).
   */
  static start(options: LeaseRenewalThreadOptions): LeaseRenewalThread | undefined {
    const connection = connectionRecipe(options.redis);
    if (connection === undefined) {
      options.logger.warn(
        "the Redis connection's options cannot be copied to the lease renewal thread; renewing leases on the main thread",
      );
      return undefined;
    }
    const { shardCount } = options.keys;
    const buffer = new SharedArrayBuffer(
      (HEADER_SLOTS + shardCount * SHARD_SLOTS) * BigInt64Array.BYTES_PER_ELEMENT,
    );
    const shared = new BigInt64Array(buffer);
    Atomics.store(shared, 0, BigInt(Date.now()));
    let worker: Worker;
    try {
      worker = new Worker(LEASE_RENEWAL_THREAD_SOURCE, {
        eval: true,
        name: "troupe-lease-renewal",
        workerData: {
          ioredisPath: createRequire(import.meta.url).resolve("ioredis"),
          buffer,
          connection,
          owner: options.owner,
          ttlMs: options.ttlMs,
          intervalMs: options.intervalMs,
          maxEventLoopBlockMs: options.maxEventLoopBlockMs,
          renewLua: RENEW_LEASE_LUA,
          leaseKeys: Array.from({ length: shardCount }, (_, shard) => options.keys.lease(shard)),
        },
      });
    } catch (error) {
      // As for a thread that fails later: the host renews on its event loop.
      options.logger.error(
        { err: error },
        "the lease renewal thread could not start; renewing leases on the main thread",
      );
      return undefined;
    }
    // The host's stop ends it; a process that exits without stopping is not held.
    worker.unref();
    return new LeaseRenewalThread(worker, shared, options.logger);
  }

  /** False once the thread exited or failed: the host renews on its main thread then. */
  get alive(): boolean {
    return this.#alive;
  }

  /**
   * Starts renewing a lease just acquired: its slots are reset, the token
   * written last, so the thread never sees the new token with an old verdict.
   *
   * @param shard - the shard.
   * @param token - its fencing token.
   */
  hold(shard: number, token: number): void {
    Atomics.store(this.#shared, this.#slot(shard, 1), 0n);
    Atomics.store(this.#shared, this.#slot(shard, 2), 0n);
    Atomics.store(this.#shared, this.#slot(shard, 3), 0n);
    Atomics.store(this.#shared, this.#slot(shard, 0), BigInt(token));
  }

  /** Stops renewing a shard's lease (released, or lost). */
  drop(shard: number): void {
    Atomics.store(this.#shared, this.#slot(shard, 0), 0n);
  }

  /**
   * The main thread's heartbeat: now, and each held lease's writes floor (the
   * commits made under it).
   */
  heartbeat(floors: Iterable<{ readonly shard: number; readonly writesFloor: number }>): void {
    for (const { shard, writesFloor } of floors) {
      Atomics.store(this.#shared, this.#slot(shard, 1), BigInt(writesFloor));
    }
    Atomics.store(this.#shared, 0, BigInt(Date.now()));
  }

  /**
   * What the thread found of a lease: `held` until a renewal did not hold.
   *
   * @param shard - the shard.
   * @param token - the token of the grant asked about (another grant's verdict is not its own).
   */
  verdict(shard: number, token: number): LeaseRenewal {
    if (Atomics.load(this.#shared, this.#slot(shard, 0)) !== BigInt(token)) return "held";
    const verdict = Atomics.load(this.#shared, this.#slot(shard, 3));
    return verdict === 1n ? "lost" : verdict === 2n ? "writes_lost" : "held";
  }

  /**
   * When the latest renewal of this grant that held was sent (ms since the
   * epoch), or undefined when none held yet.
   */
  renewedAt(shard: number, token: number): number | undefined {
    if (Atomics.load(this.#shared, this.#slot(shard, 0)) !== BigInt(token)) return undefined;
    const at = Number(Atomics.load(this.#shared, this.#slot(shard, 2)));
    return at === 0 ? undefined : at;
  }

  /** Ends the thread (it closes its connection); resolves once it exited (at most 2 s). */
  async stop(): Promise<void> {
    if (!this.#alive) return;
    this.#worker.postMessage({ type: "stop" });
    const timer = setTimeout(() => void this.#worker.terminate(), 2_000);
    await this.#exited;
    clearTimeout(timer);
    this.#logger.debug("lease renewal thread stopped");
  }

  #slot(shard: number, index: number): number {
    return HEADER_SLOTS + shard * SHARD_SLOTS + index;
  }
}

/**
 * The options of a connection in a form that can go to another thread:
 * plain values only (functions such as `retryStrategy` are dropped; the thread
 * has its own), or undefined when they cannot be copied.
 */
function connectionRecipe(redis: RedisConnection): ConnectionRecipe | undefined {
  try {
    const recipe: ConnectionRecipe = redis.isCluster
      ? {
          kind: "cluster",
          // Not in ioredis's public typings, but the nodes the Cluster was given.
          nodes: plainValue(
            (redis as unknown as { startupNodes: unknown }).startupNodes,
          ) as unknown[],
          options: plainValue(redis.options) as Record<string, unknown>,
        }
      : { kind: "standalone", options: plainValue(redis.options) as Record<string, unknown> };
    structuredClone(recipe);
    return recipe;
  } catch {
    return undefined;
  }
}

/** Plain objects, arrays, primitives and bytes, recursively; anything else is dropped. */
function plainValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") {
    return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  }
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map(plainValue);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const plain: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const copied = plainValue(entry);
    if (copied !== undefined) plain[key] = copied;
  }
  return plain;
}
