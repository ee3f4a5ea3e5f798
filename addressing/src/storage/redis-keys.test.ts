import { describe, expect, it } from "vitest";
import { shardOf } from "../subjects/shard-of.js";
import { RedisKeys } from "./redis-keys.js";

describe("RedisKeys (key layout 2, issue #17)", () => {
  it("puts every key of a shard under the hash tag {<shard>}, an actor's under its shard's", () => {
    const keys = new RedisKeys("troupe", 8);
    const shard = shardOf({ kind: "session", id: "demo-1" }, 8);
    expect(keys.shardOfAddress("session/demo-1")).toBe(shard);
    expect(keys.actor("session/demo-1")).toBe(`troupe:{${shard}}:actor:session/demo-1`);
    expect(keys.history("session/demo-1")).toBe(`troupe:{${shard}}:history:session/demo-1`);
    expect([
      keys.lease(3),
      keys.fence(3),
      keys.watermark(3),
      keys.timers(3),
      keys.dirty(3),
    ]).toEqual([
      "troupe:{3}:lease",
      "troupe:{3}:fence",
      "troupe:{3}:watermark",
      "troupe:{3}:timers",
      "troupe:{3}:dirty",
    ]);
    // The same actor under another shard count is (usually) elsewhere.
    const other = new RedisKeys("troupe", 64).shardOfAddress("session/demo-1");
    expect(new RedisKeys("troupe", 64).actor("session/demo-1")).toBe(
      `troupe:{${other}}:actor:session/demo-1`,
    );
    // Keys no script shares stay untagged.
    expect(keys.idempotencyRecord("s1/r1/c1")).toBe("troupe:idempotency:s1/r1/c1");
    expect(keys.legacy().fence(3)).toBe("troupe:fence:3");
  });
});
