import { randomUUID } from "node:crypto";
import {
  RedisIdempotencyRecordStore,
  RedisToolResultStore,
  TOOL_RESULT_WRITE_PIECE,
  idempotencyRecordStoreContractCases,
} from "@troupe/agents/internal";
import { RedisKeys } from "@troupe/protocol/internal";
import { readToolResult } from "@troupe/agents";
import { describe, expect, it } from "vitest";
import { useRedisSuite } from "../support/redis-suite.js";

// Each suite its own key prefix, so a failure says which suite owned what.
const keys = new RedisKeys(`test-records-${randomUUID()}`);

const client = useRedisSuite();

describe("RedisIdempotencyRecordStore keeps the IdempotencyRecordStore contract on a real Redis", () => {
  for (const { name, run } of idempotencyRecordStoreContractCases(
    () => new RedisIdempotencyRecordStore(client(), keys),
  )) {
    it(name, run);
  }
});

describe("RedisIdempotencyRecordStore on a real Redis", () => {
  it("keeps an idempotency record as a hash under <prefix>:idempotency:<key> with a TTL renewed by every change", async () => {
    const store = new RedisIdempotencyRecordStore(client(), keys, { ttlMs: 60_000 });
    const key = `s-${randomUUID()}/r1/c1`;
    await store.begin(key, "idempotent_write");
    const redisKey = keys.idempotencyRecord(key);
    expect(redisKey).toBe(`${keys.prefix}:idempotency:${key}`);
    expect(await client().hgetall(redisKey)).toMatchObject({
      state: "started",
      attempts: "1",
      effectClass: "idempotent_write",
    });
    const ttlAfterBegin = await client().pttl(redisKey);
    expect(ttlAfterBegin).toBeGreaterThan(55_000);
    expect(ttlAfterBegin).toBeLessThanOrEqual(60_000);
    await client().pexpire(redisKey, 1_000);
    await store.complete(key, "succeeded", { status: "succeeded", content: "ok" });
    expect(await client().pttl(redisKey)).toBeGreaterThan(55_000);
    expect(JSON.parse((await client().hget(redisKey, "result")) ?? "")).toEqual({
      status: "succeeded",
      content: "ok",
    });
  });

  it("stamps records with the Redis server's clock", async () => {
    const store = new RedisIdempotencyRecordStore(client(), keys);
    const key = `s-${randomUUID()}/r1/c1`;
    const [seconds] = await client().time();
    await store.begin(key, "read");
    await store.complete(key, "failed", "no");
    const record = await store.get(key);
    expect(record?.createdAtMs).toBeGreaterThanOrEqual(Number(seconds) * 1000);
    expect(record?.completedAtMs).toBeGreaterThanOrEqual(record?.createdAtMs ?? Infinity);
  });
});

describe("RedisToolResultStore on a real Redis", () => {
  it("keeps a full result under <prefix>:tool-result:<ref> with a TTL, readable with readToolResult", async () => {
    const store = new RedisToolResultStore(client(), keys, { ttlMs: 30_000 });
    const ref = `s-${randomUUID()}/r1/c1`;
    const full = `${"résumé ".repeat(5_000)}🙂`;
    await store.put(ref, full);
    expect(await readToolResult(client(), keys, ref)).toBe(full);
    expect(await store.get(ref)).toBe(full);
    const ttl = await client().pttl(keys.toolResult(ref));
    expect(ttl).toBeGreaterThan(25_000);
    expect(await readToolResult(client(), keys, `${ref}-unknown`)).toBeUndefined();
  });

  it("writes a long result in pieces that join to it exactly, surrogate pairs at the cuts included (issue #31)", async () => {
    const store = new RedisToolResultStore(client(), keys, { ttlMs: 30_000 });
    const ref = `s-${randomUUID()}/r1/c2`;
    // A pair straddles the first cut (code units 524 287 and 524 288), and the result
    // is 3 pieces long.
    const full = `${"x".repeat(TOOL_RESULT_WRITE_PIECE - 1)}🙂${"é".repeat(TOOL_RESULT_WRITE_PIECE)}👍🏽 end`;
    await store.put(ref, full);
    expect(await readToolResult(client(), keys, ref)).toBe(full);
    expect(await client().pttl(keys.toolResult(ref))).toBeGreaterThan(25_000);
    // Written again (a re-run), it is the new value, not the old one appended to.
    await store.put(ref, "short");
    expect(await readToolResult(client(), keys, ref)).toBe("short");
  });
});
