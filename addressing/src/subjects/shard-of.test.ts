import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a32, shardOf } from "./shard-of.js";

describe("shardOf", () => {
  it("is FNV-1a 32-bit (published test vectors)", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(fnv1a32(bytes(""))).toBe(0x811c9dc5);
    expect(fnv1a32(bytes("a"))).toBe(0xe40c292c);
    expect(fnv1a32(bytes("foobar"))).toBe(0xbf9cf968);
  });

  it("hashes the kind and id concatenated without a separator", () => {
    expect(shardOf({ kind: "foo", id: "bar" }, 0xffff_ffff)).toBe(0xbf9cf968);
    expect(shardOf({ kind: "fo", id: "obar" }, 1000)).toBe(0xbf9cf968 % 1000);
  });

  it("matches the shards nats-server 2.9.10's partition(64,1,2) chose for recorded subjects", () => {
    // Recorded by publishing troupe.<kind>.<id>.in through the inbox mapping.
    const recorded: [string, string, number][] = [
      ["session", "demo-1", 38],
      ["session", "s1", 7],
      ["run", "demo-1", 35],
      ["run", "s1", 62],
      ["tool", "demo-1", 22],
      ["tool", "s1", 23],
      ["k", "demo-1", 3],
      ["k", "s1", 30],
    ];
    for (const [kind, id, shard] of recorded) expect(shardOf({ kind, id }, 64)).toBe(shard);
  });

  it("hashes UTF-8 bytes of raw tokens that are not valid ids", () => {
    expect(shardOf({ kind: "session", id: "é" }, 0xffff_ffff)).toBe(
      fnv1a32(new Uint8Array([...new TextEncoder().encode("session"), 0xc3, 0xa9])),
    );
  });

  it("always lands in 0 … shardCount - 1 (property, 1000 cases)", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 1, max: 0xffff_ffff }),
        (kind, id, count) => {
          const shard = shardOf({ kind, id }, count);
          expect(Number.isInteger(shard)).toBe(true);
          expect(shard).toBeGreaterThanOrEqual(0);
          expect(shard).toBeLessThan(count);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([8, 16, 64, 256])("spreads 20000 session ids evenly over %i shards", (count) => {
    const counts = new Array<number>(count).fill(0);
    const total = 20_000;
    for (let index = 0; index < total; index += 1) {
      const shard = shardOf({ kind: "session", id: `s-${index.toString(36)}` }, count);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    const mean = total / count;
    for (const observed of counts) {
      expect(observed).toBeGreaterThan(mean * 0.7);
      expect(observed).toBeLessThan(mean * 1.3);
    }
  });

  it.each([0, -1, 1.5, Number.NaN, 2 ** 32])("refuses the shard count %d", (count) => {
    expect(() => shardOf({ kind: "session", id: "s1" }, count)).toThrow(RangeError);
  });
});
