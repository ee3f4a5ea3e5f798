import type { EffectContext, RedisConnection } from "@troupe/runtime";
import { RedisScript } from "@troupe/runtime/internal";
import type { RedisKeys } from "@troupe/protocol/internal";

/** First pause between two tries to take a slot, in ms. */
export const SLOT_RETRY_FIRST_MS = 20;
/** Longest pause between two tries to take a slot, in ms. */
export const SLOT_RETRY_MAX_MS = 250;
/** Added to the call's timeout before a slot never given back (its host crashed) expires, in ms. */
export const SLOT_GRACE_MS = 30_000;

/**
 * Takes a slot of an agent's concurrency limit, or renews the caller's own.
 * Scores use the Redis clock (no synchronized host clocks); expired slots —
 * of a host that crashed mid-call — are removed first.
 * KEYS: the agent's slots (`RedisKeys.modelCallSlots`); ARGV: holder, limit,
 * hold time in ms. Returns 1 when the holder has a slot, else 0.
 */
const acquireSlotScript = new RedisScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  return 1
end
return 0
`);

/** One call's request for a slot. */
export interface ModelCallSlotRequest {
  /** The agent whose limit applies. */
  readonly agent: string;
  /** Who holds the slot, unique per try of a call: `<address>/<effectId>#<hostRun>`. */
  readonly holder: string;
  /** Most calls of the agent holding a slot at once (whole, ≥ 1). */
  readonly limit: number;
  /** How long an unreleased slot is held, in ms (the call's timeout and a margin). */
  readonly holdMs: number;
}

/** A slot taken by {@link ModelCallSlots.acquire}. */
export interface ModelCallSlot {
  /** Gives the slot back; never rejects (a slot that cannot be removed expires). */
  release(): Promise<void>;
}

/**
 * The slots of the agents' concurrency limits on model calls
 * (`limits.maxConcurrentModelCalls`, docs/decisions/0058), shared by the hosts
 * of a deployment.
 */
export interface ModelCallSlots {
  /**
   * Waits for a slot: tries, and while the agent's slots are all held, tries
   * again after a pause growing from {@link SLOT_RETRY_FIRST_MS} to
   * {@link SLOT_RETRY_MAX_MS}.
   *
   * @param request - agent, holder, limit and hold time.
   * @param signal - ends the wait when aborted.
   * @returns the slot, or undefined when `signal` aborted first.
   * @throws the store's error when a try fails (e.g. Redis unreachable).
   */
  acquire(request: ModelCallSlotRequest, signal: AbortSignal): Promise<ModelCallSlot | undefined>;
}

/**
 * {@link ModelCallSlots} in Redis: one sorted set per agent
 * (`RedisKeys.modelCallSlots`), members the holders, scores their slots'
 * expiry (Unix ms, Redis clock). Waiters poll; they are not served in order.
 */
export class RedisModelCallSlots implements ModelCallSlots {
  readonly #redis: RedisConnection;
  readonly #keys: RedisKeys;

  /**
   * @param redis - the deployment's Redis.
   * @param keys - its key layout.
   */
  constructor(redis: RedisConnection, keys: RedisKeys) {
    this.#redis = redis;
    this.#keys = keys;
  }

  async acquire(
    request: ModelCallSlotRequest,
    signal: AbortSignal,
  ): Promise<ModelCallSlot | undefined> {
    const key = this.#keys.modelCallSlots(request.agent);
    let pauseMs = SLOT_RETRY_FIRST_MS;
    while (!signal.aborted) {
      const granted = await acquireSlotScript.run(
        this.#redis,
        [key],
        [request.holder, request.limit, request.holdMs],
      );
      if (Number(granted) === 1) {
        if (!signal.aborted) {
          return { release: () => this.#release(key, request.holder) };
        }
        await this.#release(key, request.holder);
        return undefined;
      }
      await pause(pauseMs, signal);
      pauseMs = Math.min(pauseMs * 2, SLOT_RETRY_MAX_MS);
    }
    return undefined;
  }

  async #release(key: string, holder: string): Promise<void> {
    await this.#redis.zrem(key, holder).catch(() => undefined);
  }
}

/**
 * Runs `work` holding a slot of the agent's limit (none when `slots` or `limit`
 * is undefined), given back however `work` ends; holder
 * `<kind>/<id>/<effectId>#<hostRun>` of the effect `context` names.
 *
 * @param slots - the deployment's slots; undefined = no concurrency limits.
 * @param limit - the agent's `limits.maxConcurrentModelCalls`; undefined = no limit.
 * @param request - the agent and its `modelCallTimeoutMs` (a slot is held at most that plus {@link SLOT_GRACE_MS}).
 * @param context - the effect's context (address, id, host run, signal).
 * @param run - `work`, the model call, and `aborted`, the result when the
 *   effect's signal aborts during the wait (the model is then not called).
 * @returns what `work` or `aborted` returns.
 * @throws what `work` or `aborted` throws, or the store's error while waiting.
 */
export async function withModelCallSlot<T>(
  slots: ModelCallSlots | undefined,
  limit: number | undefined,
  request: { readonly agent: string; readonly callTimeoutMs: number },
  context: EffectContext,
  run: { readonly work: () => Promise<T>; readonly aborted: () => T },
): Promise<T> {
  if (slots === undefined || limit === undefined) return await run.work();
  const { kind, id } = context.address;
  const holder = `${kind}/${id}/${context.effectId}#${await context.hostRun()}`;
  const holdMs = request.callTimeoutMs + SLOT_GRACE_MS;
  const slot = await slots.acquire({ agent: request.agent, holder, limit, holdMs }, context.signal);
  if (slot === undefined) return run.aborted();
  try {
    return await run.work();
  } finally {
    await slot.release();
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
