import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "./decode-error.js";
import { TroupeError } from "./troupe-error.js";
import { messageWithCauses, toWireError, wireErrorSchema } from "./wire-error.js";

describe("toWireError", () => {
  it("keeps a TroupeError's code, message, retryable and JSON details; of its cause only the message", () => {
    const error = new TroupeError("effect_failed", "tool crashed", {
      retryable: true,
      cause: new Error("connection reset"),
      details: { attempt: 3, big: 10n, inner: new Error("inner failure"), skip: () => 1 },
    });
    expect(toWireError(error)).toEqual({
      code: "effect_failed",
      message: "tool crashed: connection reset",
      retryable: true,
      details: { attempt: 3, big: "10", inner: "inner failure" },
    });
  });

  it("never repeats a message: a cause whose message is already in the text is skipped (issue #11)", () => {
    const provider = Object.assign(new Error("bad request"), { statusCode: 400 });
    const own = new TroupeError("model_error", "model m of p failed (HTTP 400)", {
      cause: provider,
    });
    expect(toWireError(own).message).toBe("model m of p failed (HTTP 400): bad request");
    // An error that already pasted its cause's message in is not doubled.
    const pasted = new TroupeError("model_error", "refused: bad request", { cause: provider });
    expect(toWireError(pasted).message).toBe("refused: bad request");
    // A chain: each message once, in order, outermost first.
    const inner = new Error("ECONNRESET", { cause: new Error("socket hang up") });
    const chain = new TroupeError("effect_failed", "could not read", { cause: inner });
    expect(toWireError(chain).message).toBe("could not read: ECONNRESET: socket hang up");
    expect(
      toWireError(new TypeError("fetch failed", { cause: new Error("other side closed") })),
    ).toEqual({ code: "internal", message: "fetch failed: other side closed", retryable: false });
  });

  it("messageWithCauses stops after four causes and at a cause that is not an error", () => {
    let error = new Error("e5");
    for (const message of ["e4", "e3", "e2", "e1", "e0"])
      error = new Error(message, { cause: error });
    expect(messageWithCauses(error)).toBe("e0: e1: e2: e3: e4");
    expect(messageWithCauses(new Error("outer", { cause: "a string" }))).toBe("outer");
    expect(messageWithCauses(new Error("", { cause: new Error("inner") }))).toBe("inner");
    expect(messageWithCauses(new Error("A sentence.", { cause: new Error("why") }))).toBe(
      "A sentence: why",
    );
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
