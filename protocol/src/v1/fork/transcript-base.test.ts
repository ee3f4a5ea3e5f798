import { describe, expect, it } from "vitest";
import { sessionForkSchema } from "./session-fork.js";
import { forkTranscriptBase, transcriptBaseSchema, transcriptOwnerOf } from "./transcript-base.js";

describe("forkTranscriptBase", () => {
  it("a fork of a session that is no fork points at the source's first entries", () => {
    expect(forkTranscriptBase("a", [], 4)).toEqual([{ sessionId: "a", length: 4 }]);
  });

  it("a fork at length 0 shares nothing", () => {
    expect(forkTranscriptBase("a", [], 0)).toEqual([]);
  });

  it("a fork of a fork past the source's base adds the source's own entries", () => {
    expect(forkTranscriptBase("b", [{ sessionId: "a", length: 4 }], 7)).toEqual([
      { sessionId: "a", length: 4 },
      { sessionId: "b", length: 7 },
    ]);
  });

  it("a fork of a fork inside the source's base cuts the base and skips the source", () => {
    const base = [
      { sessionId: "a", length: 4 },
      { sessionId: "b", length: 7 },
    ];
    expect(forkTranscriptBase("c", base, 2)).toEqual([{ sessionId: "a", length: 2 }]);
    expect(forkTranscriptBase("c", base, 4)).toEqual([{ sessionId: "a", length: 4 }]);
    expect(forkTranscriptBase("c", base, 5)).toEqual([
      { sessionId: "a", length: 4 },
      { sessionId: "b", length: 5 },
    ]);
  });
});

describe("transcriptOwnerOf", () => {
  const base = [
    { sessionId: "a", length: 4 },
    { sessionId: "b", length: 7 },
  ];
  it("maps each index to the session whose log holds it", () => {
    expect([0, 3, 4, 6, 7, 20].map((index) => transcriptOwnerOf("c", base, index))).toEqual([
      "a",
      "a",
      "b",
      "b",
      "c",
      "c",
    ]);
  });
});

describe("schemas", () => {
  it("a base whose lengths do not grow is refused", () => {
    const result = transcriptBaseSchema.safeParse([
      { sessionId: "a", length: 4 },
      { sessionId: "b", length: 4 },
    ]);
    expect(result.success).toBe(false);
  });

  it("session.fork refuses both points at once and unknown fields", () => {
    expect(sessionForkSchema.safeParse({ from: "a", atSequence: 3, atRunId: "r1" }).success).toBe(
      false,
    );
    expect(sessionForkSchema.safeParse({ from: "a", to: "b" }).success).toBe(false);
    expect(sessionForkSchema.safeParse({ from: "a b" }).success).toBe(false);
    expect(sessionForkSchema.parse({ from: "a", atRunId: "r2" })).toEqual({
      from: "a",
      atRunId: "r2",
    });
  });
});
