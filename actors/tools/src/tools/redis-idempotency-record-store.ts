import type { RedisConnection } from "@troupe/runtime";
import type { RedisKeys } from "@troupe/protocol/internal";
import { RedisScript } from "@troupe/runtime/internal";
import {
  MAX_TOOL_EXECUTION_ATTEMPTS,
  type ToolEffectClass,
  isRetryableEffectClass,
} from "./define-tool.js";
import {
  type BeginOptions,
  DEFAULT_IDEMPOTENCY_RECORD_TTL_MS,
  type IdempotencyRecordDecision,
  type IdempotencyRecord,
  type IdempotencyRecordStatus,
  type IdempotencyRecordStore,
} from "./idempotency-record-store.js";

const NOW_MS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

// KEYS: the record; ARGV: effectClass, retryable (1|0), maxExecutionAttempts, ttlMs,
// livenessMs (0: no mark), retryingAttempt (0: none)
// The hash field `attempts` holds the execution attempts begun (its name is stored data);
// `liveUntilMs` the liveness mark of the latest attempt.
const beginScript = new RedisScript(`${NOW_MS}
local function mark()
  if tonumber(ARGV[5]) > 0 then
    redis.call('HSET', KEYS[1], 'liveUntilMs', now + tonumber(ARGV[5]))
  else
    redis.call('HDEL', KEYS[1], 'liveUntilMs')
  end
end
local state = redis.call('HGET', KEYS[1], 'state')
if not state then
  redis.call('HSET', KEYS[1], 'state', 'started', 'attempts', 1, 'effectClass', ARGV[1],
    'createdAtMs', now, 'startedAtMs', now)
  mark()
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'run', 1}
end
if state ~= 'started' then
  return {'reuse', state, redis.call('HGET', KEYS[1], 'result') or 'null'}
end
local attempts = tonumber(redis.call('HGET', KEYS[1], 'attempts') or '0')
local liveUntil = tonumber(redis.call('HGET', KEYS[1], 'liveUntilMs') or '0')
if liveUntil > now and tonumber(ARGV[6]) ~= attempts then
  return {'running', attempts, liveUntil - now}
end
if ARGV[2] == '1' and attempts < tonumber(ARGV[3]) then
  attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
  redis.call('HSET', KEYS[1], 'startedAtMs', now)
  mark()
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'run', attempts}
end
return {'outcome_unknown', attempts}
`);

// KEYS: the record; ARGV: executionAttempt, livenessMs
const keepAliveScript = new RedisScript(`${NOW_MS}
if redis.call('HGET', KEYS[1], 'state') ~= 'started' then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'attempts') or '0') ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'liveUntilMs', now + tonumber(ARGV[2]))
return 1
`);

// KEYS: the record; ARGV: status, result (JSON), ttlMs
const completeScript = new RedisScript(`${NOW_MS}
local state = redis.call('HGET', KEYS[1], 'state')
if state and state ~= 'started' then
  return {state, redis.call('HGET', KEYS[1], 'result') or 'null'}
end
if not state then
  redis.call('HSET', KEYS[1], 'attempts', 0, 'createdAtMs', now)
end
redis.call('HDEL', KEYS[1], 'liveUntilMs')
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'result', ARGV[2], 'completedAtMs', now)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {ARGV[1], ARGV[2]}
`);

/** Options of {@link RedisIdempotencyRecordStore}. */
export interface RedisIdempotencyRecordStoreOptions {
  /** How long a record is kept after its last change, in ms; default 7 days (604 800 000 ms). */
  readonly ttlMs?: number;
  /** Execution attempts in all for retryable classes; default 3 (`MAX_TOOL_EXECUTION_ATTEMPTS`). */
  readonly maxExecutionAttempts?: number;
}

/**
 * {@link IdempotencyRecordStore} on Redis: one hash per call under
 * `<prefix>:idempotency:<idempotencyKey>` (`RedisKeys.idempotencyRecord`), changed
 * only by two Lua scripts, so `begin` and `complete` are atomic even between hosts.
 * Timestamps come from the Redis server's clock; every change renews the TTL
 * (default 7 days), after which the call counts as never begun.
 *
 * @example
 * ```ts
 * const records = new RedisIdempotencyRecordStore(redis, new RedisKeys("troupe"));
 * const decision = await records.begin("s1/r1/c1", "non_idempotent_write");
 * ```
 */
export class RedisIdempotencyRecordStore implements IdempotencyRecordStore {
  readonly #ttlMs: number;
  /** See {@link IdempotencyRecordStore.maxExecutionAttempts}. */
  readonly maxExecutionAttempts: number;

  /**
   * @param redis - connection.
   * @param keys - the deployment's key layout.
   * @param options - TTL and execution attempts, see {@link RedisIdempotencyRecordStoreOptions}.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
    options: RedisIdempotencyRecordStoreOptions = {},
  ) {
    this.#ttlMs = options.ttlMs ?? DEFAULT_IDEMPOTENCY_RECORD_TTL_MS;
    this.maxExecutionAttempts = options.maxExecutionAttempts ?? MAX_TOOL_EXECUTION_ATTEMPTS;
  }

  /** See {@link IdempotencyRecordStore.begin}. @throws the Redis client's error when Redis is unreachable. */
  async begin(
    key: string,
    effectClass: ToolEffectClass,
    options: BeginOptions = {},
  ): Promise<IdempotencyRecordDecision> {
    const reply = (await beginScript.run(
      this.redis,
      [this.keys.idempotencyRecord(key)],
      [
        effectClass,
        isRetryableEffectClass(effectClass) ? "1" : "0",
        this.maxExecutionAttempts,
        this.#ttlMs,
        options.livenessMs ?? 0,
        options.retryingAttempt ?? 0,
      ],
    )) as [string, number | string, string | number | undefined];
    const [kind, value, result] = reply;
    if (kind === "run") return { kind: "run", executionAttempt: Number(value) };
    if (kind === "reuse") {
      return {
        kind: "reuse",
        status: value as IdempotencyRecordStatus,
        result: JSON.parse(String(result ?? "null")),
      };
    }
    if (kind === "running") {
      return { kind: "running", executionAttempts: Number(value), liveForMs: Number(result) };
    }
    return { kind: "outcome_unknown", executionAttempts: Number(value) };
  }

  /** See {@link IdempotencyRecordStore.keepAlive}. @throws the Redis client's error when Redis is unreachable. */
  async keepAlive(key: string, executionAttempt: number, livenessMs: number): Promise<boolean> {
    const reply = await keepAliveScript.run(
      this.redis,
      [this.keys.idempotencyRecord(key)],
      [executionAttempt, livenessMs],
    );
    return reply === 1;
  }

  /** See {@link IdempotencyRecordStore.complete}. @throws the Redis client's error when Redis is unreachable. */
  async complete(
    key: string,
    status: IdempotencyRecordStatus,
    result: unknown,
  ): Promise<{ status: IdempotencyRecordStatus; result: unknown }> {
    const reply = (await completeScript.run(
      this.redis,
      [this.keys.idempotencyRecord(key)],
      [status, JSON.stringify(result ?? null), this.#ttlMs],
    )) as [IdempotencyRecordStatus, string];
    return { status: reply[0], result: JSON.parse(reply[1]) as unknown };
  }

  /** See {@link IdempotencyRecordStore.get}. */
  async get(key: string): Promise<IdempotencyRecord | undefined> {
    const hash = await this.redis.hgetall(this.keys.idempotencyRecord(key));
    if (hash["state"] === undefined) return undefined;
    const number = (field: string) =>
      hash[field] === undefined ? {} : { [field]: Number(hash[field]) };
    return {
      state: hash["state"] as IdempotencyRecord["state"],
      executionAttempts: Number(hash["attempts"] ?? 0),
      createdAtMs: Number(hash["createdAtMs"] ?? 0),
      ...(hash["effectClass"] === undefined
        ? {}
        : { effectClass: hash["effectClass"] as ToolEffectClass }),
      ...(hash["result"] === undefined ? {} : { result: JSON.parse(hash["result"]) as unknown }),
      ...number("startedAtMs"),
      ...number("completedAtMs"),
      ...number("liveUntilMs"),
    };
  }
}
