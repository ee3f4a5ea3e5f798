import { randomUUID } from "node:crypto";
import { RedisSpendLedger, type SpendBudget, type SpendSettlement } from "@troupe/agents/internal";
import { RedisKeys } from "@troupe/protocol/internal";
import { describe, expect, it } from "vitest";
import { useRedisSuite } from "../support/redis-suite.js";

// The spend ledger's scripts on a real Redis (issue #19, decision 0041).
const client = useRedisSuite();

const HOUR_MS = 3_600_000;

/** Waits until the Redis server's clock (TIME, ms) is past `ms`: what expiry is judged by. */
async function untilRedisTimePasses(ms: number): Promise<void> {
  for (;;) {
    const [seconds, micros] = await client().time();
    if (Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) > ms) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A fresh deployment prefix and one session budget of `tokens`, per test. */
function fixture(tokens: number | undefined, microUsd?: number) {
  const keys = new RedisKeys(`test-spend-${randomUUID().slice(0, 8)}`);
  const ledger = new RedisSpendLedger(client(), keys);
  const budget: SpendBudget = { scope: "session", scopeId: "s1", tokens, microUsd, ttlMs: HOUR_MS };
  const read = async () => client().hgetall(keys.spendBudget("session", "s1"));
  const reserve = (effectId: string, amount: number, holdMs = HOUR_MS) =>
    ledger.reserve({
      sessionId: "s1",
      effectId,
      budgets: [budget],
      tokens: amount,
      microUsd: amount * 10,
      holdMs,
    });
  const settle = (
    effectId: string,
    inputTokens: number,
    outputTokens: number,
    extra: Partial<SpendSettlement> = {},
  ) =>
    ledger.settle({
      sessionId: "s1",
      effectId,
      budgets: [budget],
      inputTokens,
      outputTokens,
      microUsd: (inputTokens + outputTokens) * 10,
      warnAt: 0.5,
      agent: "boss",
      rootSessionId: "s1",
      usageTtlMs: HOUR_MS,
      ...extra,
    });
  return { keys, ledger, read, reserve, settle };
}

describe("RedisSpendLedger on a real Redis", () => {
  it("50 concurrent reservations that together would overshoot: exactly as many as fit are held", async () => {
    const { reserve, read } = fixture(1000);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => reserve(`r1.m${index + 1}.a1`, 100)),
    );
    expect(results.filter((result) => result.kind === "reserved")).toHaveLength(10);
    const refused = results.filter((result) => result.kind === "refused");
    expect(refused).toHaveLength(40);
    expect(refused[0]).toMatchObject({ unit: "tokens", reserved: 1000, limit: 1000, needed: 100 });
    expect(await read()).toMatchObject({ reservedTokens: "1000", reservedMicroUsd: "10000" });
  });

  it("a reservation is keyed by its effect: reserving again holds nothing more, settling twice counts once", async () => {
    const { reserve, settle, read, keys } = fixture(1000);
    expect(await reserve("r1.m1.a1", 300)).toEqual({ kind: "reserved" });
    expect(await reserve("r1.m1.a1", 300)).toEqual({ kind: "reserved" }); // the re-run after a crash
    expect(await read()).toMatchObject({ reservedTokens: "300" });
    await settle("r1.m1.a1", 120, 80);
    await settle("r1.m1.a1", 999, 999); // a second settlement of the same effect
    expect(await read()).toMatchObject({
      reservedTokens: "0",
      reservedMicroUsd: "0",
      spentTokens: "200",
      spentMicroUsd: "2000",
      inputTokens: "120",
      outputTokens: "80",
      calls: "1",
    });
    // A re-run past the settlement is told so, and holds nothing.
    expect(await reserve("r1.m1.a1", 300)).toEqual({ kind: "settled", warnings: [] });
    expect(await read()).toMatchObject({ reservedTokens: "0", spentTokens: "200" });
    expect(await client().hgetall(keys.spendUsage("s1"))).toMatchObject({
      agent: "boss",
      rootSessionId: "s1",
      inputTokens: "120",
      outputTokens: "80",
      microUsd: "2000",
      calls: "1",
    });
    expect(await client().smembers(keys.spendTree("s1"))).toEqual(["s1"]);
  });

  it("the settlement that crosses warnAt × limit reports it, once, and a repeat returns the same warning", async () => {
    const { reserve, settle } = fixture(1000, 10_000);
    await reserve("r1.m1.a1", 100);
    expect(await settle("r1.m1.a1", 200, 200)).toEqual([]); // 400 of 1000: below 0.5
    await reserve("r1.m2.a1", 100);
    const crossing = await settle("r1.m2.a1", 50, 50); // 500 of 1000, $0.005 of $0.01
    expect(crossing).toEqual([
      { scope: "session", scopeId: "s1", unit: "tokens", spent: 500, limit: 1000, warnAt: 0.5 },
      { scope: "session", scopeId: "s1", unit: "usd", spent: 0.005, limit: 0.01, warnAt: 0.5 },
    ]);
    expect(await settle("r1.m2.a1", 50, 50)).toEqual(crossing);
    expect(await reserve("r1.m2.a1", 100)).toEqual({ kind: "settled", warnings: crossing });
    await reserve("r1.m3.a1", 100);
    expect(await settle("r1.m3.a1", 50, 50)).toEqual([]); // already past the threshold
  });

  it("a reservation nobody settles is released when it expires by the Redis clock, by the next reservation", async () => {
    const { reserve, read, keys } = fixture(1000);
    // Its host was killed; the call never re-runs. Held 3 s: long enough that the
    // next reservation, one round trip later, meets it held.
    await reserve("r1.m1.a1", 800, 3_000);
    const expiresAt = Number(
      await client().hget(keys.spendReservation("s1", "r1.m1.a1"), "expiresAtMs"),
    );
    expect((await reserve("r2.m1.a1", 300)).kind).toBe("refused");
    await untilRedisTimePasses(expiresAt);
    expect(await reserve("r2.m1.a1", 300)).toEqual({ kind: "reserved" });
    expect(await read()).toMatchObject({ reservedTokens: "300" });
    expect(await client().hget(keys.spendReservation("s1", "r1.m1.a1"), "state")).toBe("released");
    expect(await client().zrange(keys.spendReservations(), "0", "-1")).toEqual([
      keys.spendReservation("s1", "r2.m1.a1"),
    ]);
  });

  it("one clock: the expiry is the Redis server's TIME plus the hold, whatever the reserving host's clock", async () => {
    const { reserve, keys } = fixture(1000);
    const [seconds, micros] = await client().time();
    const redisNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await reserve("r1.m1.a1", 100, 60_000);
    const expiresAt = Number(
      await client().hget(keys.spendReservation("s1", "r1.m1.a1"), "expiresAtMs"),
    );
    expect(expiresAt).toBeGreaterThanOrEqual(redisNow + 60_000);
    expect(expiresAt).toBeLessThan(redisNow + 60_000 + 5_000);
  });

  it("a late settlement of an expired reservation counts the usage without giving back what was released", async () => {
    const { reserve, settle, read, keys } = fixture(1000);
    await reserve("r1.m1.a1", 500, 300);
    await untilRedisTimePasses(
      Number(await client().hget(keys.spendReservation("s1", "r1.m1.a1"), "expiresAtMs")),
    );
    await reserve("r2.m1.a1", 100); // releases r1's 500
    await settle("r1.m1.a1", 150, 50);
    expect(await read()).toMatchObject({ reservedTokens: "100", spentTokens: "200" });
  });

  it("release gives an unsettled reservation back; a cost limit is not applied to a call without a price", async () => {
    const { ledger, reserve, read } = fixture(undefined, 1_000);
    await reserve("r1.m1.a1", 50); // 500 µ$ of 1 000
    await ledger.release("s1", "r1.m1.a1");
    expect(await read()).toMatchObject({ reservedTokens: "0", reservedMicroUsd: "0" });
    const free = await ledger.reserve({
      sessionId: "s1",
      effectId: "r1.m2.a1",
      budgets: [
        { scope: "session", scopeId: "s1", tokens: undefined, microUsd: 1, ttlMs: HOUR_MS },
      ],
      tokens: 5000,
      microUsd: 0,
      holdMs: 1_000,
    });
    expect(free).toEqual({ kind: "reserved" });
  });
});
