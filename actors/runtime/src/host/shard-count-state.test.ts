import { describe, expect, it } from "vitest";
import { catchUpRange, mustHoldNoShard, readShardCountState } from "./shard-count-state.js";

describe("readShardCountState", () => {
  it("reads the deployment hash, ignoring malformed fields", () => {
    expect(
      readShardCountState({
        shardCount: "8",
        resizeFrom: "4",
        resizeMarkerSeq: "120",
        resizeCatchUpFrom: "97",
        resizeTo: "x",
        earlierShardCounts: "2,4,zero",
      }),
    ).toEqual({
      shardCount: 8,
      resizeFrom: 4,
      markerSeq: 120,
      catchUpFrom: 97,
      resizeTo: undefined,
      earlierShardCounts: [2, 4],
    });
    expect(readShardCountState({})).toEqual({
      shardCount: undefined,
      resizeTo: undefined,
      resizeFrom: undefined,
      markerSeq: undefined,
      catchUpFrom: undefined,
      earlierShardCounts: [],
    });
  });
});

describe("mustHoldNoShard", () => {
  it("holds shards as before when no change was ever made", () => {
    expect(mustHoldNoShard(readShardCountState({ shardCount: "4" }), 4)).toBe(false);
  });
  it("holds none while a change is under way, whatever the host's count", () => {
    const changing = readShardCountState({ shardCount: "4", resizeTo: "8" });
    expect(mustHoldNoShard(changing, 4)).toBe(true);
    expect(mustHoldNoShard(changing, 8)).toBe(true);
  });
  it("holds none once the deployment has another count than the host", () => {
    const changed = readShardCountState({ shardCount: "8", resizeMarkerSeq: "50" });
    expect(mustHoldNoShard(changed, 4)).toBe(true);
    expect(mustHoldNoShard(changed, 8)).toBe(false);
  });
});

describe("catchUpRange", () => {
  it("is the usual start without a change, or once the watermark passed the marker", () => {
    expect(catchUpRange(10, undefined)).toBeUndefined();
    expect(catchUpRange(51, 50)).toBeUndefined();
    expect(catchUpRange(0, 50)).toBeUndefined();
  });
  it("scans from the watermark to the marker otherwise", () => {
    expect(catchUpRange(30, 50)).toEqual({ fromSeq: 30, markerSeq: 50 });
    expect(catchUpRange(50, 50)).toEqual({ fromSeq: 50, markerSeq: 50 });
  });
});
