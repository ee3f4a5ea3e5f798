import { describe, expect, it } from "vitest";
import { toJsonValue } from "./to-json-value.js";

describe("toJsonValue", () => {
  it("turns bytes, bigints, maps, sets and dates into plain JSON", () => {
    const value = toJsonValue({
      bytes: new Uint8Array([1, 2, 3]),
      buffer: Buffer.from("hi"),
      big: 12345678901234567890n,
      map: new Map<unknown, unknown>([[1, "one"]]),
      set: new Set(["a"]),
      date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      nested: [undefined, Number.NaN, { keep: true, drop: undefined }],
    });
    expect(value).toEqual({
      bytes: { bytes: 3, base64: "AQID" },
      buffer: { bytes: 2, base64: "aGk=" },
      big: "12345678901234567890",
      map: { 1: "one" },
      set: ["a"],
      date: "2026-01-02T03:04:05.000Z",
      nested: [null, null, { keep: true }],
    });
    expect(JSON.parse(JSON.stringify(value))).toEqual(value);
  });

  it("gives null for undefined at the top", () => {
    expect(toJsonValue(undefined)).toBeNull();
  });
});
