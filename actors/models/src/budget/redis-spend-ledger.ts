import type { BudgetWarning } from "@troupe/protocol";
import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "@troupe/runtime";
import { RedisScript } from "@troupe/runtime/internal";
import type {
  SpendBudget,
  SpendLedger,
  SpendReservationRequest,
  SpendReservationResult,
  SpendSettlement,
} from "./spend-ledger.js";

/** How long a settled or released reservation is remembered (so a re-run is not counted again), in ms: 7 days. */
export const SPEND_RESERVATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How many expired reservations one reservation releases first, at most. */
const EXPIRED_PER_RESERVE = 16;

// Releases one reservation (its held amounts leave every budget it names).
// Amounts are negated as `0 - x`: Lua's `-x` of 0 is -0, which HINCRBY refuses.
// The budget keys are read from the reservation: every spend key carries the
// hash tag {spend}, so they are in the script's slot (decision 0041).
const RELEASE = `
local function release(key, index)
  local held = redis.call('HMGET', key, 'state', 'tokens', 'microUsd', 'budgets')
  if held[1] == 'reserved' then
    for budget in string.gmatch(held[4] or '', '[^\\n]+') do
      redis.call('HINCRBY', budget, 'reservedTokens', 0 - tonumber(held[2]))
      redis.call('HINCRBY', budget, 'reservedMicroUsd', 0 - tonumber(held[3]))
    end
    redis.call('HSET', key, 'state', 'released')
  end
  redis.call('ZREM', index, key)
end
`;

// KEYS: reservation, index, budget…; ARGV: holdMs, (unused), tokens, microUsd,
// reservationTtlMs, expiredPerReserve, then per budget: tokenLimit (-1: none), microUsdLimit (-1), ttlMs.
// Expiry is set and judged by the Redis server's clock (TIME) alone.
const reserveScript = new RedisScript(`${RELEASE}
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expiresAt = now + tonumber(ARGV[1])
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[6]))
for _, key in ipairs(expired) do release(key, KEYS[2]) end
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'settled' then
  return {'settled', redis.call('HGET', KEYS[1], 'warnings') or '[]'}
end
if state == 'reserved' then
  redis.call('HSET', KEYS[1], 'expiresAtMs', expiresAt)
  redis.call('ZADD', KEYS[2], expiresAt, KEYS[1])
  return {'reserved'}
end
local tokens = tonumber(ARGV[3])
local micro = tonumber(ARGV[4])
for i = 3, #KEYS do
  local base = 6 + (i - 3) * 3
  local tokenLimit = tonumber(ARGV[base + 1])
  local microLimit = tonumber(ARGV[base + 2])
  local h = redis.call('HMGET', KEYS[i], 'spentTokens', 'reservedTokens', 'spentMicroUsd', 'reservedMicroUsd')
  local spentTokens, reservedTokens = tonumber(h[1] or '0'), tonumber(h[2] or '0')
  local spentMicro, reservedMicro = tonumber(h[3] or '0'), tonumber(h[4] or '0')
  if tokenLimit >= 0 and spentTokens + reservedTokens + tokens > tokenLimit then
    return {'refused', i - 2, 'tokens', spentTokens, reservedTokens, tokenLimit, tokens}
  end
  if microLimit >= 0 and micro > 0 and spentMicro + reservedMicro + micro > microLimit then
    return {'refused', i - 2, 'usd', spentMicro, reservedMicro, microLimit, micro}
  end
end
local budgets = {}
for i = 3, #KEYS do
  local base = 6 + (i - 3) * 3
  redis.call('HINCRBY', KEYS[i], 'reservedTokens', tokens)
  redis.call('HINCRBY', KEYS[i], 'reservedMicroUsd', micro)
  redis.call('PEXPIRE', KEYS[i], ARGV[base + 3])
  table.insert(budgets, KEYS[i])
end
redis.call('HSET', KEYS[1], 'state', 'reserved', 'tokens', tokens, 'microUsd', micro,
  'budgets', table.concat(budgets, '\\n'), 'expiresAtMs', expiresAt)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], expiresAt, KEYS[1])
return {'reserved'}
`);

// KEYS: reservation, index, usage record, tree set, budget…;
// ARGV: inputTokens, outputTokens, microUsd, warnAt, reservationTtlMs, usageTtlMs,
// sessionId, agent, rootSessionId, then per budget: tokenLimit (-1), microUsdLimit (-1), ttlMs, scope, scopeId
const settleScript = new RedisScript(`
local held = redis.call('HMGET', KEYS[1], 'state', 'tokens', 'microUsd')
if held[1] == 'settled' then return redis.call('HGET', KEYS[1], 'warnings') or '[]' end
local heldTokens, heldMicro = 0, 0
if held[1] == 'reserved' then
  heldTokens = tonumber(held[2])
  heldMicro = tonumber(held[3])
end
local input, output, micro = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tokens = input + output
local warnAt = tonumber(ARGV[4])
local warnings = {}
for i = 5, #KEYS do
  local base = 9 + (i - 5) * 5
  local key = KEYS[i]
  local tokenLimit = tonumber(ARGV[base + 1])
  local microLimit = tonumber(ARGV[base + 2])
  redis.call('HINCRBY', key, 'reservedTokens', 0 - heldTokens)
  redis.call('HINCRBY', key, 'reservedMicroUsd', 0 - heldMicro)
  local tokensAfter = redis.call('HINCRBY', key, 'spentTokens', tokens)
  local microAfter = redis.call('HINCRBY', key, 'spentMicroUsd', micro)
  redis.call('HINCRBY', key, 'inputTokens', input)
  redis.call('HINCRBY', key, 'outputTokens', output)
  redis.call('HINCRBY', key, 'calls', 1)
  redis.call('PEXPIRE', key, ARGV[base + 3])
  local scope, scopeId = ARGV[base + 4], ARGV[base + 5]
  if tokenLimit >= 0 and tokensAfter - tokens < warnAt * tokenLimit and tokensAfter >= warnAt * tokenLimit then
    table.insert(warnings, {scope = scope, scopeId = scopeId, unit = 'tokens', spent = tokensAfter, limit = tokenLimit, warnAt = warnAt})
  end
  if microLimit >= 0 and microAfter - micro < warnAt * microLimit and microAfter >= warnAt * microLimit then
    table.insert(warnings, {scope = scope, scopeId = scopeId, unit = 'usd', spent = microAfter, limit = microLimit, warnAt = warnAt})
  end
end
redis.call('HINCRBY', KEYS[3], 'inputTokens', input)
redis.call('HINCRBY', KEYS[3], 'outputTokens', output)
redis.call('HINCRBY', KEYS[3], 'microUsd', micro)
redis.call('HINCRBY', KEYS[3], 'calls', 1)
redis.call('HSET', KEYS[3], 'agent', ARGV[8], 'rootSessionId', ARGV[9])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
redis.call('SADD', KEYS[4], ARGV[7])
redis.call('PEXPIRE', KEYS[4], ARGV[6])
local encoded = '[]'
if #warnings > 0 then encoded = cjson.encode(warnings) end
redis.call('HSET', KEYS[1], 'state', 'settled', 'warnings', encoded)
redis.call('HDEL', KEYS[1], 'budgets')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZREM', KEYS[2], KEYS[1])
return encoded
`);

// KEYS: reservation, index
const releaseScript = new RedisScript(`${RELEASE}
release(KEYS[1], KEYS[2])
return 1
`);

const limitArgument = (limit: number | undefined) => (limit === undefined ? -1 : limit);

/** A warning as the settle script encodes it: usd amounts in micro-dollars. */
interface StoredWarning {
  readonly scope: BudgetWarning["scope"];
  readonly scopeId: string;
  readonly unit: BudgetWarning["unit"];
  readonly spent: number;
  readonly limit: number;
  readonly warnAt: number;
}

/**
 * {@link SpendLedger} on Redis (docs/decisions/0041): every budget is
 * a hash under `RedisKeys.spendBudget`, every reservation a hash under
 * `RedisKeys.spendReservation` (keyed by the model call's effect) indexed by
 * expiry in `RedisKeys.spendReservations`. Reserving, settling and releasing
 * are one Lua script each, so concurrent calls on any number of hosts see one
 * order and cannot overshoot a limit together. All spend keys share the hash
 * tag `{spend}`, so the scripts run on a Redis Cluster too. Amounts are whole
 * tokens and whole micro-dollars (`HINCRBY`: no floating-point drift).
 *
 * @example
 * ```ts
 * const ledger = new RedisSpendLedger(redis, new RedisKeys("troupe"));
 * const result = await ledger.reserve({ sessionId: "s1", effectId: "r1.m1.a1", budgets, tokens: 4200, microUsd: 2600, holdMs: 660_000 });
 * ```
 */
export class RedisSpendLedger implements SpendLedger {
  /**
   * @param redis - connection.
   * @param keys - the deployment's key layout.
   * @param reservationTtlMs - how long a settled reservation is remembered, ms (default 7 days).
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
    private readonly reservationTtlMs: number = SPEND_RESERVATION_TTL_MS,
  ) {}

  /** See {@link SpendLedger.reserve}. @throws the Redis client's error when Redis is unreachable. */
  async reserve(request: SpendReservationRequest): Promise<SpendReservationResult> {
    const reply = (await reserveScript.run(
      this.redis,
      [
        this.keys.spendReservation(request.sessionId, request.effectId),
        this.keys.spendReservations(),
        ...request.budgets.map((budget) => this.budgetKey(budget)),
      ],
      [
        request.holdMs,
        0,
        request.tokens,
        request.microUsd,
        this.reservationTtlMs,
        EXPIRED_PER_RESERVE,
        ...request.budgets.flatMap((budget) => [
          limitArgument(budget.tokens),
          limitArgument(budget.microUsd),
          budget.ttlMs,
        ]),
      ],
    )) as [string, ...(string | number)[]];
    const [kind, ...rest] = reply;
    if (kind === "reserved") return { kind };
    if (kind === "settled") return { kind, warnings: decodeWarnings(String(rest[0])) };
    const [index, unit, spent, reserved, limit, needed] = rest.map((value, position) =>
      position === 1 ? value : Number(value),
    ) as [number, "tokens" | "usd", number, number, number, number];
    const scale = unit === "usd" ? 1e6 : 1;
    return {
      kind: "refused",
      budget: request.budgets[index - 1]!,
      unit,
      spent: spent / scale,
      reserved: reserved / scale,
      limit: limit / scale,
      needed: needed / scale,
    };
  }

  /** See {@link SpendLedger.settle}. @throws the Redis client's error when Redis is unreachable. */
  async settle(settlement: SpendSettlement): Promise<readonly BudgetWarning[]> {
    const reply = await settleScript.run(
      this.redis,
      [
        this.keys.spendReservation(settlement.sessionId, settlement.effectId),
        this.keys.spendReservations(),
        this.keys.spendUsage(settlement.sessionId),
        this.keys.spendTree(settlement.rootSessionId),
        ...settlement.budgets.map((budget) => this.budgetKey(budget)),
      ],
      [
        settlement.inputTokens,
        settlement.outputTokens,
        settlement.microUsd,
        settlement.warnAt,
        this.reservationTtlMs,
        settlement.usageTtlMs,
        settlement.sessionId,
        settlement.agent,
        settlement.rootSessionId,
        ...settlement.budgets.flatMap((budget) => [
          limitArgument(budget.tokens),
          limitArgument(budget.microUsd),
          budget.ttlMs,
          budget.scope,
          budget.scopeId,
        ]),
      ],
    );
    return decodeWarnings(String(reply));
  }

  /** See {@link SpendLedger.release}. @throws the Redis client's error when Redis is unreachable. */
  async release(sessionId: string, effectId: string): Promise<void> {
    await releaseScript.run(
      this.redis,
      [this.keys.spendReservation(sessionId, effectId), this.keys.spendReservations()],
      [],
    );
  }

  private budgetKey(budget: SpendBudget): string {
    return this.keys.spendBudget(budget.scope, budget.scopeId);
  }
}

/** The settle script's warnings as `BudgetWarning`s (usd amounts in dollars). */
function decodeWarnings(encoded: string): BudgetWarning[] {
  const stored = JSON.parse(encoded) as StoredWarning[];
  return stored.map((warning) => {
    const scale = warning.unit === "usd" ? 1e6 : 1;
    return {
      scope: warning.scope,
      scopeId: warning.scopeId,
      unit: warning.unit,
      spent: warning.spent / scale,
      limit: warning.limit / scale,
      warnAt: warning.warnAt,
    };
  });
}
