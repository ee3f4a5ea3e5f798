import { describe, expect, it } from "vitest";
import { DecodeError } from "./decode-error.js";
import { InvalidAddressError } from "./invalid-address-error.js";
import { PayloadTooLargeError } from "./payload-too-large-error.js";
import { TroupeError } from "./troupe-error.js";

describe("TroupeError", () => {
  it("carries code, message, retryable (default false), cause and details", () => {
    const cause = new Error("socket closed");
    const error = new TroupeError("timeout", "the call took too long", {
      cause,
      details: { timeoutMs: 5000 },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("TroupeError");
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("the call took too long");
    expect(error.retryable).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ timeoutMs: 5000 });
    expect(new TroupeError("lease_lost", "gone", { retryable: true }).retryable).toBe(true);
  });

  it("recognises errors by brand, also from another copy of the package", () => {
    const foreign = Object.assign(new Error("from elsewhere"), {
      code: "decode_failed",
      [Symbol.for("troupe.error")]: true,
    });
    expect(TroupeError.isInstance(foreign)).toBe(true);
    expect(DecodeError.isInstance(foreign)).toBe(true);
    expect(PayloadTooLargeError.isInstance(foreign)).toBe(false);
    expect(TroupeError.isInstance(new Error("plain"))).toBe(false);
    expect(TroupeError.isInstance({ code: "decode_failed" })).toBe(false);
    expect(TroupeError.isInstance(null)).toBe(false);
    expect(TroupeError.isInstance("decode_failed")).toBe(false);
  });

  it("tells the subclasses apart by code", () => {
    const decode = new DecodeError("bad", { reason: "undecodable", subject: "troupe.a.b.in" });
    const tooLarge = new PayloadTooLargeError({ sizeBytes: 10, maxBytes: 5 });
    const address = new InvalidAddressError("bad id", "id", "a b");
    expect(DecodeError.isInstance(decode)).toBe(true);
    expect(DecodeError.isInstance(tooLarge)).toBe(false);
    expect(PayloadTooLargeError.isInstance(tooLarge)).toBe(true);
    expect(InvalidAddressError.isInstance(address)).toBe(true);
    expect(InvalidAddressError.isInstance(decode)).toBe(false);
    expect([decode, tooLarge, address].every((error) => TroupeError.isInstance(error))).toBe(true);
  });

  it("DecodeError keeps reason, subject and issues, also in details", () => {
    const issues = [{ code: "custom" as const, path: ["payload"], message: "nope", input: 1 }];
    const error = new DecodeError("invalid", { reason: "schema_invalid", subject: "s", issues });
    expect(error.reason).toBe("schema_invalid");
    expect(error.subject).toBe("s");
    expect(error.issues).toBe(issues);
    expect(error.retryable).toBe(false);
    expect(error.details).toEqual({ reason: "schema_invalid", subject: "s", issues });
  });

  it("PayloadTooLargeError states the size and the limit in bytes", () => {
    const error = new PayloadTooLargeError({
      sizeBytes: 2_000_000,
      maxBytes: 1_048_576,
      subject: "x.y",
    });
    expect(error.message).toBe("The message on x.y is 2000000 bytes; the limit is 1048576 bytes.");
    expect(error.sizeBytes).toBe(2_000_000);
    expect(error.maxBytes).toBe(1_048_576);
    expect(error.code).toBe("payload_too_large");
  });
});
