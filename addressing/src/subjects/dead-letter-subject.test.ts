import { describe, expect, it } from "vitest";
import { subjectsCollide } from "../testing/subjects-collide.js";
import { deadLetterSubject } from "./dead-letter-subject.js";
import { DEAD_LETTER_STREAM_SUBJECTS } from "./stream-subjects.js";

describe("dead-letter subjects", () => {
  it("are _troupe.deadletter.<kind>.<id> for usable tokens, even invalid actor ids", () => {
    expect(deadLetterSubject("session", "demo-1")).toBe("_troupe.deadletter.session.demo-1");
    expect(deadLetterSubject("inbox", "ünï")).toBe("_troupe.deadletter.inbox.ünï");
  });

  it.each([
    ["", "x"],
    ["session", ""],
    ["a.b", "x"],
    ["session", "a b"],
    ["session", "*"],
    ["session", ">"],
    ["session", "tab\there"],
  ])("fall back to _troupe.deadletter._invalid._invalid for (%j, %j)", (kind, id) => {
    expect(deadLetterSubject(kind, id)).toBe("_troupe.deadletter._invalid._invalid");
  });

  it("are all captured by the dead-letter stream", () => {
    for (const subject of [deadLetterSubject("session", "s1"), deadLetterSubject("", "")]) {
      expect(DEAD_LETTER_STREAM_SUBJECTS.some((pattern) => subjectsCollide(pattern, subject))).toBe(
        true,
      );
    }
  });
});
