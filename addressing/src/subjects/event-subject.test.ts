import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../errors/decode-error.js";
import { InvalidAddressError } from "../errors/invalid-address-error.js";
import { subjectsCollide } from "../testing/subjects-collide.js";
import {
  allSessionsEventWildcard,
  eventSubject,
  eventWildcard,
  parseEventSubject,
} from "./event-subject.js";
import { isValidEventType } from "./event-type.js";

const session = { kind: "session", id: "s1" };

describe("event subjects", () => {
  it("are troupe.<kind>.<id>.events.<eventType> with one token per type part", () => {
    expect(eventSubject(session, "run.completed")).toBe("troupe.session.s1.events.run.completed");
    expect(eventSubject(session, "tool.approval_requested")).toBe(
      "troupe.session.s1.events.tool.approval_requested",
    );
  });

  it("have wildcards for one session and for one type across sessions", () => {
    expect(eventWildcard(session)).toBe("troupe.session.s1.events.>");
    expect(allSessionsEventWildcard("tool.approval_requested")).toBe(
      "troupe.session.*.events.tool.approval_requested",
    );
    const approval = eventSubject({ kind: "session", id: "other" }, "tool.approval_requested");
    expect(subjectsCollide(allSessionsEventWildcard("tool.approval_requested"), approval)).toBe(
      true,
    );
    expect(subjectsCollide(eventWildcard(session), approval)).toBe(false);
    expect(subjectsCollide(eventWildcard(session), eventSubject(session, "run.delta"))).toBe(true);
  });

  it("has a wildcard for every event of every session, and none for other kinds", () => {
    expect(allSessionsEventWildcard()).toBe("troupe.session.*.events.>");
    expect(subjectsCollide(allSessionsEventWildcard(), eventSubject(session, "run.delta"))).toBe(
      true,
    );
    const runEvent = eventSubject({ kind: "run", id: "s1" }, "run.started");
    expect(subjectsCollide(allSessionsEventWildcard(), runEvent)).toBe(false);
  });

  it.each([
    "Run.Completed",
    "run..completed",
    ".run",
    "run.",
    "run completed",
    "run.*",
    "run.>",
    "",
  ])("refuse the event type %j", (eventType) => {
    expect(isValidEventType(eventType)).toBe(false);
    expect(() => eventSubject(session, eventType)).toThrow(RangeError);
    expect(() => allSessionsEventWildcard(eventType)).toThrow(RangeError);
  });

  it("refuse invalid addresses", () => {
    expect(() => eventSubject({ kind: "session", id: "" }, "run.completed")).toThrow(
      InvalidAddressError,
    );
    expect(() => eventWildcard({ kind: "host", id: "h1" })).toThrow(InvalidAddressError);
  });

  it.each([
    "troupe.session.s1.events",
    "troupe.session.s1.in",
    "troupe.session.s1.evts.run.x",
    "x.session.s1.events.a",
  ])("parse refuses %j", (subject) => {
    expect(() => parseEventSubject(subject)).toThrow(DecodeError);
  });

  it("parse(build(address, type)) gives both back (property, 500 cases)", () => {
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
    const eventType = fc
      .array(fc.stringMatching(/^[a-z0-9_]{1,12}$/), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join("."));
    fc.assert(
      fc.property(
        fc.constantFrom("session", "run", "tool", "subagent"),
        id,
        eventType,
        (kind, i, type) => {
          const subject = eventSubject({ kind, id: i }, type);
          expect(parseEventSubject(subject)).toEqual({ address: { kind, id: i }, eventType: type });
          expect(subjectsCollide(eventWildcard({ kind, id: i }), subject)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
