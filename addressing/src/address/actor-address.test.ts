import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidAddressError } from "../errors/invalid-address-error.js";
import { actorAddress, actorAddressSchema } from "./actor-address.js";
import { isValidActorId } from "./actor-id.js";
import { RESERVED_ACTOR_KINDS, isValidActorKind } from "./actor-kind.js";
import { formatAddress } from "./format-address.js";
import { actorAddressTextSchema, isValidAddressText, parseAddress } from "./parse-address.js";

const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);
const kind = token.filter((value) => !RESERVED_ACTOR_KINDS.includes(value));

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected the action to throw");
}

describe("actor addresses", () => {
  it("accepts kinds and ids of letters, digits, _ and -, up to 128 characters", () => {
    expect(actorAddress("session", "demo-1")).toEqual({ kind: "session", id: "demo-1" });
    expect(actorAddress("my_Kind-2", "A".repeat(128))).toEqual({
      kind: "my_Kind-2",
      id: "A".repeat(128),
    });
    expect(isValidActorId("abc_DEF-123")).toBe(true);
  });

  it.each([
    ["", "it is empty"],
    ["a.b", 'it contains "."'],
    ["a b", 'it contains " "'],
    ["a*", 'it contains "*"'],
    ["a>", 'it contains ">"'],
    ["a/b", 'it contains "/"'],
    ["é", 'it contains "é"'],
    ["x".repeat(129), "it is 129 characters long"],
  ])("refuses the id %j, saying %s and what is allowed", (id, problem) => {
    const error = thrown(() => actorAddress("session", id));
    expect(InvalidAddressError.isInstance(error)).toBe(true);
    const invalid = error as InvalidAddressError;
    expect(invalid.field).toBe("id");
    expect(invalid.value).toBe(id);
    expect(invalid.message).toContain(problem);
    expect(invalid.message).toContain('1 to 128 characters from A-Z, a-z, 0-9, "_" and "-"');
    expect(isValidActorId(id)).toBe(false);
  });

  it("refuses reserved kinds and says which kinds are reserved", () => {
    for (const reserved of ["inbox", "deadletter", "internal", "host"]) {
      const error = thrown(() => actorAddress(reserved, "x")) as InvalidAddressError;
      expect(error.field).toBe("kind");
      expect(error.message).toContain("reserved");
      expect(error.message).toContain("inbox, deadletter, internal, host");
      expect(isValidActorKind(reserved)).toBe(false);
    }
    expect(isValidActorKind("Inbox")).toBe(true);
  });

  it("refuses a kind with a dot", () => {
    const error = thrown(() => actorAddress("ses.sion", "x")) as InvalidAddressError;
    expect(error.field).toBe("kind");
    expect(error.message).toMatch(/^Invalid actor kind "ses.sion": it contains "\."/);
  });

  it("formats and parses kind/id", () => {
    expect(formatAddress({ kind: "session", id: "demo-1" })).toBe("session/demo-1");
    expect(parseAddress("session/demo-1")).toEqual({ kind: "session", id: "demo-1" });
    expect(() => formatAddress({ kind: "session", id: "a.b" })).toThrow(InvalidAddressError);
  });

  it.each(["session", "session/", "/x", "a/b/c", "inbox/x", "session/a b", ""])(
    "refuses the address text %j",
    (text) => {
      expect(() => parseAddress(text)).toThrow(InvalidAddressError);
      expect(isValidAddressText(text)).toBe(false);
      expect(actorAddressTextSchema.safeParse(text).success).toBe(false);
    },
  );

  it("parse(format(address)) is the address for every valid address (property, 1000 cases)", () => {
    fc.assert(
      fc.property(kind, token, (k, id) => {
        const address = actorAddress(k, id);
        expect(parseAddress(formatAddress(address))).toEqual(address);
        expect(actorAddressSchema.parse(address)).toEqual(address);
        expect(actorAddressTextSchema.parse(`${k}/${id}`)).toBe(`${k}/${id}`);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses every id with a character outside the allowed set (property, 500 cases)", () => {
    const bad = fc
      .string({ unit: "binary", minLength: 1, maxLength: 1 })
      .filter((c) => !/[A-Za-z0-9_-]/.test(c));
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        bad,
        fc.string({ maxLength: 10 }),
        (before, character, after) => {
          const id = `${before}${character}${after}`;
          expect(isValidActorId(id)).toBe(false);
          expect(() => actorAddress("session", id)).toThrow(InvalidAddressError);
        },
      ),
      { numRuns: 500 },
    );
  });
});
