import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH, formatWirePath, toWireValue, type WirePath } from "./wire-value.js";

class Problem extends Error {
  constructor(
    readonly problem: string,
    readonly path: WirePath,
  ) {
    super(problem);
  }
}

const strict = (value: unknown) =>
  toWireValue(value, (problem, path) => {
    throw new Problem(problem, [...path]);
  });

function problemOf(value: unknown): Problem {
  try {
    strict(value);
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error("expected a problem");
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe("toWireValue", () => {
  it("copies JSON data, drops undefined properties and turns -0 into 0", () => {
    const input = { a: [1, "two", true, null, { b: -0 }], c: undefined };
    const output = strict(input);
    expect(output).toEqual({ a: [1, "two", true, null, { b: 0 }] });
    expect(
      Object.is((output as { a: [unknown, unknown, unknown, unknown, { b: number }] }).a[4].b, 0),
    ).toBe(true);
    expect(output).not.toBe(input);
  });

  it("accepts objects without a prototype", () => {
    const bare = Object.assign(Object.create(null) as object, { x: 1 });
    expect(strict(bare)).toEqual({ x: 1 });
  });

  it.each([
    [{ a: Number.NaN }, ["a"], "NaN is not a finite number"],
    [{ a: [1, Infinity] }, ["a", 1], "Infinity is not a finite number"],
    [{ a: 1n }, ["a"], "a bigint is not plain data"],
    [{ a: [undefined] }, ["a", 0], "undefined is not plain data"],
    [{ a: new Date(0) }, ["a"], "a Date is not a plain object or array"],
    [{ a: new Uint8Array(2) }, ["a"], "a Uint8Array is not a plain object or array"],
    [{ a: new Map() }, ["a"], "a Map is not a plain object or array"],
    [{ a: () => 1 }, ["a"], "a function is not plain data"],
    [{ a: Symbol("s") }, ["a"], "a symbol is not plain data"],
    [{ a: "\ud800" }, ["a"], "the string is not well-formed Unicode"],
    [
      JSON.parse('{"x":{"__proto__":{"polluted":true}}}'),
      ["x"],
      'the key "__proto__" is not allowed',
    ],
  ])("refuses %o at %j", (value, path, problem) => {
    const error = problemOf(value);
    expect(error.problem).toBe(problem);
    expect(error.path).toEqual(path);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`accepts nesting up to ${MAX_NESTING_DEPTH} levels and refuses deeper`, () => {
    expect(() => strict(nested(MAX_NESTING_DEPTH))).not.toThrow();
    expect(problemOf(nested(MAX_NESTING_DEPTH + 1)).problem).toBe(
      `the value nests deeper than ${MAX_NESTING_DEPTH} levels`,
    );
  });

  it("writes readable paths", () => {
    expect(formatWirePath([])).toBe("$");
    expect(formatWirePath(["payload", "items", 2, "odd key"])).toBe(
      '$.payload.items[2]["odd key"]',
    );
  });
});
