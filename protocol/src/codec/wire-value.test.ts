import { describe, expect, it } from "vitest";
import {
  MAX_NESTING_DEPTH,
  checkedWireValue,
  formatWirePath,
  type WirePath,
} from "./wire-value.js";

class Problem extends Error {
  constructor(
    readonly problem: string,
    readonly path: WirePath,
  ) {
    super(problem);
  }
}

const strict = (value: unknown) =>
  checkedWireValue(value, (problem, path) => {
    throw new Problem(problem, [...path]);
  });

const checkedStrict = (value: unknown, widenIntegers = false) =>
  checkedWireValue(
    value,
    (problem, path) => {
      throw new Problem(problem, [...path]);
    },
    { widenIntegers },
  );

/** Values outside the data model, the path of the first problem, and the problem. */
const refusedCases: [unknown, WirePath, string][] = [
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
];

function problemOf(value: unknown, check: (value: unknown) => unknown = strict): Problem {
  try {
    check(value);
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

describe("checkedWireValue: the data model", () => {
  it("keeps JSON data, drops undefined properties and turns -0 into 0", () => {
    const input = { a: [1, "two", true, null, { b: -0 }], c: undefined };
    const output = strict(input);
    expect(output).toEqual({ a: [1, "two", true, null, { b: 0 }] });
    expect(
      Object.is((output as { a: [unknown, unknown, unknown, unknown, { b: number }] }).a[4].b, 0),
    ).toBe(true);
    expect(output).not.toBe(input);
    expect(Object.is(input.a[4] && (input.a[4] as { b: number }).b, -0)).toBe(true);
  });

  it("accepts objects without a prototype", () => {
    const bare = Object.assign(Object.create(null) as object, { x: 1 });
    expect(strict(bare)).toEqual({ x: 1 });
  });

  it.each(refusedCases)("refuses %o at %j", (value, path, problem) => {
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

describe("checkedWireValue (issue #32)", () => {
  it("returns the value itself when it fits unchanged, to any depth", () => {
    const inner = { b: [1, "two", true, null] };
    const input = { a: [inner, { c: "x" }], d: 2 };
    const output = checkedStrict(input) as typeof input;
    expect(output).toBe(input);
    expect(output.a[0]).toBe(inner);
  });

  it("copies only the parts on the path to a change: undefined dropped, -0 as 0", () => {
    const untouched = { keep: [1, 2] };
    const input = { a: untouched, b: { c: -0, d: "e" }, f: undefined, g: [3, -0] };
    const output = checkedStrict(input) as Record<string, unknown>;
    expect(output).toEqual({ a: { keep: [1, 2] }, b: { c: 0, d: "e" }, g: [3, 0] });
    expect(Object.keys(output)).toEqual(["a", "b", "g"]);
    expect(output).not.toBe(input);
    expect(output.a).toBe(untouched);
    expect(Object.is((output.b as { c: number }).c, 0)).toBe(true);
    expect(Object.is((output.g as number[])[1], 0)).toBe(true);
    // The input is left as it was.
    expect(Object.is(input.b.c, -0)).toBe(true);
    expect("f" in input).toBe(true);
  });

  it("widens whole numbers beyond 32 bits to bigints when asked, and only those", () => {
    const input = { at: 1_796_356_124_843, small: 4_294_967_295, low: -2_147_483_649, x: 1.5 };
    expect(checkedStrict(input)).toBe(input);
    expect(checkedStrict(input, true)).toEqual({
      at: 1_796_356_124_843n,
      small: 4_294_967_295,
      low: -2_147_483_649n,
      x: 1.5,
    });
  });

  it.each(refusedCases)("refuses %o at %j with integers widened too", (value, path, problem) => {
    const error = problemOf(value, (candidate) => checkedStrict(candidate, true));
    expect(error.problem).toBe(problem);
    expect(error.path).toEqual(path);
  });
});
