import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../errors/decode-error.js";
import { InvalidAddressError } from "../errors/invalid-address-error.js";
import { inboxSubject, parseInboxSubject } from "./inbox-subject.js";

describe("inbox subjects", () => {
  it("are troupe.<kind>.<id>.in", () => {
    expect(inboxSubject({ kind: "session", id: "demo-1" })).toBe("troupe.session.demo-1.in");
    expect(parseInboxSubject("troupe.session.demo-1.in")).toEqual({
      kind: "session",
      id: "demo-1",
    });
  });

  it("refuse invalid addresses before anything is published", () => {
    expect(() => inboxSubject({ kind: "session", id: "a.b" })).toThrow(InvalidAddressError);
    expect(() => inboxSubject({ kind: "inbox", id: "x" })).toThrow(InvalidAddressError);
  });

  it.each([
    "troupe.session.demo-1",
    "troupe.session.demo-1.out",
    "other.session.s.in",
    "troupe.a.b.c.in",
    "",
  ])("parse refuses %j", (subject) => {
    expect(() => parseInboxSubject(subject)).toThrow(DecodeError);
  });

  it("parse refuses a valid layout with an invalid id", () => {
    expect(() => parseInboxSubject("troupe.session.é.in")).toThrow(InvalidAddressError);
  });

  it("parse(build(address)) is the address (property, 500 cases)", () => {
    const kind = fc
      .stringMatching(/^[a-z_]{1,20}$/)
      .filter((k) => !["inbox", "deadletter", "internal", "host"].includes(k));
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);
    fc.assert(
      fc.property(kind, id, (k, i) => {
        expect(parseInboxSubject(inboxSubject({ kind: k, id: i }))).toEqual({ kind: k, id: i });
      }),
      { numRuns: 500 },
    );
  });
});
