import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "./decode-error.js";
import { TroupeError } from "./troupe-error.js";
import { toWireError, wireErrorSchema } from "./wire-error.js";

describe("toWireError", () => {
  it("keeps a TroupeError's code, message, retryable and JSON details, never its cause", () => {
    const error = new TroupeError("effect_failed", "tool crashed", {
      retryable: true,
      cause: new Error("secret stack"),
      details: { attempt: 3, big: 10n, inner: new Error("inner failure"), skip: () => 1 },
    });
    expect(toWireError(error)).toEqual({
      code: "effect_failed",
      message: "tool crashed",
      retryable: true,
      details: { attempt: 3, big: "10", inner: "inner failure" },
    });
  });

  it("drops details that cannot become JSON (cycles)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const wire = toWireError(new TroupeError("internal", "x", { details: cyclic }));
    expect(wire).toEqual({ code: "internal", message: "x", retryable: false });
  });

  it("turns other errors and thrown values into internal errors", () => {
    expect(toWireError(new TypeError("bad input"))).toEqual({
      code: "internal",
      message: "bad input",
      retryable: false,
    });
    expect(toWireError("plain text")).toEqual({
      code: "internal",
      message: "plain text",
      retryable: false,
    });
    expect(toWireError(42).message).toBe("A non-error value was thrown: number 42.");
    expect(toWireError(undefined).message).toBe("A non-error value was thrown: undefined.");
  });

  it("passes a value that already is a wire error through", () => {
    const wire = { code: "timeout", message: "late", retryable: true, details: { ms: 5 } };
    expect(toWireError(wire)).toEqual(wire);
  });

  it("keeps decode issues in details", () => {
    const wire = toWireError(
      new DecodeError("bad", { reason: "unknown_type", subject: "troupe.session.s1.in" }),
    );
    expect(wire.details).toEqual({ reason: "unknown_type", subject: "troupe.session.s1.in" });
  });

  it("always returns data matching wireErrorSchema (property, 500 cases)", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const wire = toWireError(value);
        expect(wireErrorSchema.safeParse(wire).success).toBe(true);
        expect(wire).not.toBeInstanceOf(Error);
      }),
      { numRuns: 500 },
    );
  });
});
