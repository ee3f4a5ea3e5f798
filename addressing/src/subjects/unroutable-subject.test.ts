import { describe, expect, it } from "vitest";
import {
  UNROUTABLE_DEAD_LETTER_SUBJECT,
  isRoutedPublicSubject,
  unroutableCaptureSubjects,
} from "./unroutable-subject.js";

/** NATS subject matching of one pattern against one literal subject. */
function matches(pattern: string, subject: string): boolean {
  const want = pattern.split(".");
  const got = subject.split(".");
  for (let index = 0; index < want.length; index += 1) {
    if (want[index] === ">") return got.length > index;
    if (index >= got.length) return false;
    if (want[index] !== "*" && want[index] !== got[index]) return false;
  }
  return want.length === got.length;
}

describe("unroutable subjects", () => {
  const captures = unroutableCaptureSubjects();

  it("captures the shapes up to 5 tokens and .in shapes up to 16 tokens", () => {
    expect(captures.slice(0, 6)).toEqual([
      "troupe",
      "troupe.*",
      "troupe.*.*",
      "troupe.*.*.*",
      "troupe.*.*.*.*",
      "troupe.*.*.*.*.in",
    ]);
    expect(captures.at(-1)).toBe(`troupe${".*".repeat(14)}.in`);
    expect(captures).toHaveLength(16);
  });

  it.each([
    "troupe.session.a.b.in",
    "troupe.session.in",
    "troupe.session.demo-1",
    "troupe.session.a.b.c.d.e.f.in",
    "troupe",
  ])("captures %s and finds no route for it", (subject) => {
    expect(captures.some((pattern) => matches(pattern, subject))).toBe(true);
    expect(isRoutedPublicSubject(subject)).toBe(false);
  });

  it("copies no routed subject it could receive to the dead letters, and never sees six-token events", () => {
    for (const routed of ["troupe.session.demo-1.in", "troupe.counter.c1.events.ping"]) {
      expect(isRoutedPublicSubject(routed)).toBe(true);
    }
    for (const event of [
      "troupe.session.s1.events.run.delta",
      "troupe.session.s1.events.run.completed",
    ]) {
      expect(captures.some((pattern) => matches(pattern, event))).toBe(false);
    }
  });

  it("puts unroutable dead letters on a 3-token subject, apart from every actor's", () => {
    expect(UNROUTABLE_DEAD_LETTER_SUBJECT).toBe("_troupe.deadletter.unroutable");
    expect(matches("_troupe.deadletter.>", UNROUTABLE_DEAD_LETTER_SUBJECT)).toBe(true);
    expect(matches("_troupe.deadletter.*.*", UNROUTABLE_DEAD_LETTER_SUBJECT)).toBe(false);
  });
});
