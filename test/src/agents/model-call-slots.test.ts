import { RedisModelCallSlots, withModelCallSlot } from "@troupe/agents/internal";
import { EffectCancelledError, type EffectContext } from "@troupe/runtime";
import { RedisKeys } from "@troupe/protocol/internal";
import { describe, expect, it } from "vitest";
import { useRedisSuite } from "../support/redis-suite.js";

// docs/decisions/0058: the Redis slots of an agent's concurrency limit on model calls.
const redis = useRedisSuite();
const keys = new RedisKeys("troupe", 8);

function request(agent: string, holder: string, limit = 2, holdMs = 60_000) {
  return { agent, holder, limit, holdMs };
}

function effectContext(effectId: string, signal: AbortSignal): EffectContext {
  return {
    signal,
    address: { kind: "run", id: "s1" },
    effectId,
    hostRun: () => Promise.resolve(1),
  };
}

describe("RedisModelCallSlots", () => {
  it("grants up to the limit, makes the next caller wait until a slot is released, and deletes the set when empty", async () => {
    const slots = new RedisModelCallSlots(redis(), keys);
    const signal = new AbortController().signal;
    const first = await slots.acquire(request("a1", "h1"), signal);
    const second = await slots.acquire(request("a1", "h2"), signal);
    expect(await redis().zrange(keys.modelCallSlots("a1"), "0", "-1")).toEqual(["h1", "h2"]);
    // Another agent has slots of its own.
    const other = await slots.acquire(request("a2", "h3"), signal);
    expect(other).toBeDefined();

    let thirdGranted = false;
    const third = slots.acquire(request("a1", "h4"), signal).then((slot) => {
      thirdGranted = true;
      return slot;
    });
    // The waiter has tried and found both slots held (its key is not added).
    await expect.poll(() => redis().zcard(keys.modelCallSlots("a1"))).toBe(2);
    expect(thirdGranted).toBe(false);
    await first?.release();
    const granted = await third;
    expect(thirdGranted).toBe(true);
    expect(await redis().zrange(keys.modelCallSlots("a1"), "0", "-1")).toEqual(["h2", "h4"]);

    await second?.release();
    await granted?.release();
    await other?.release();
    expect(await redis().exists(keys.modelCallSlots("a1"), keys.modelCallSlots("a2"))).toBe(0);
  });

  it("frees the slot of a holder that never released it once its hold time passes (Redis clock)", async () => {
    const slots = new RedisModelCallSlots(redis(), keys);
    const signal = new AbortController().signal;
    // A crashed host's slot: held for 50 ms, never released.
    await slots.acquire(request("a3", "crashed", 1, 50), signal);
    const [, expiresAtMs] = await redis().zrange(
      keys.modelCallSlots("a3"),
      "0",
      "-1",
      "WITHSCORES",
    );
    const next = await slots.acquire(request("a3", "next", 1, 60_000), signal);
    const [member, nextExpiresAtMs] = await redis().zrange(
      keys.modelCallSlots("a3"),
      "0",
      "-1",
      "WITHSCORES",
    );
    expect(member).toBe("next");
    // Granted (at its expiry − 60 s, by the Redis clock) no earlier than the crashed slot's expiry.
    expect(Number(nextExpiresAtMs) - 60_000).toBeGreaterThanOrEqual(Number(expiresAtMs));
    await next?.release();
  });

  it("ends the wait when the signal aborts, without taking a slot", async () => {
    const slots = new RedisModelCallSlots(redis(), keys);
    const held = await slots.acquire(request("a4", "holder", 1), new AbortController().signal);
    const controller = new AbortController();
    const waiting = slots.acquire(request("a4", "waiter", 1), controller.signal);
    controller.abort(new EffectCancelledError("e1"));
    expect(await waiting).toBeUndefined();
    expect(await redis().zrange(keys.modelCallSlots("a4"), "0", "-1")).toEqual(["holder"]);
    await held?.release();
  });

  it("withModelCallSlot holds a slot named after the effect while the work runs and gives it back when it throws", async () => {
    const slots = new RedisModelCallSlots(redis(), keys);
    const context = effectContext("e7", new AbortController().signal);
    const seen: string[] = [];
    await expect(
      withModelCallSlot(slots, 1, { agent: "a5", callTimeoutMs: 1_000 }, context, {
        work: async () => {
          seen.push(...(await redis().zrange(keys.modelCallSlots("a5"), "0", "-1")));
          throw new Error("model failed");
        },
        aborted: () => "aborted",
      }),
    ).rejects.toThrow("model failed");
    expect(seen).toEqual(["run/s1/e7#1"]);
    expect(await redis().exists(keys.modelCallSlots("a5"))).toBe(0);

    // No limit: the work runs without touching Redis.
    const unlimited = await withModelCallSlot(
      slots,
      undefined,
      { agent: "a5", callTimeoutMs: 1_000 },
      context,
      {
        work: async () => (await redis().exists(keys.modelCallSlots("a5"))) === 0,
        aborted: () => false,
      },
    );
    expect(unlimited).toBe(true);
  });
});
