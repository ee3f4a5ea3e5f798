import { describe, expect, it } from "vitest";
import { assembleClusterStatus } from "./assemble-cluster-status.js";
import { formatClusterStatus } from "./format-cluster-status.js";
import { formatDeadLetters } from "./format-dead-letters.js";

describe("dead letters in the admin views (issue #11)", () => {
  it("formatDeadLetters prints one row per dead letter, newest first as given, reasons cut at 120 characters", () => {
    const text = formatDeadLetters([
      {
        sequence: 12,
        storedAtMs: Date.UTC(2026, 10, 30, 22, 0, 0),
        deadLetterSubject: "_troupe.deadletter.unroutable",
        code: "unroutable_subject",
        reason: `No route for the subject "troupe.session.a.b.in": ${"x".repeat(200)}`,
        subject: "troupe.session.a.b.in",
      },
      {
        sequence: 3,
        storedAtMs: Date.UTC(2026, 10, 30, 21, 0, 0),
        deadLetterSubject: "_troupe.deadletter.session.s1",
        code: "decode_failed:schema_invalid",
        reason: "The run.steer body is invalid: text: Expected a text.",
        subject: "_troupe.inbox.5.session.s1",
      },
    ]);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^seq {2}stored at +code +subject +reason$/);
    expect(lines[1]).toMatch(
      /^ {1}12 {2}2026-11-30T22:00:00\.000Z {2}unroutable_subject +troupe\.session\.a\.b\.in +No route for the subject/,
    );
    expect(lines[1]!.endsWith("…")).toBe(true);
    expect(lines[2]).toContain("decode_failed:schema_invalid");
    expect(formatDeadLetters([])).toBe("no dead letters");
  });

  it("troupe status says how many dead letters are unroutable publishes", () => {
    const status = assembleClusterStatus({
      prefix: "troupe",
      shardCount: 1,
      observedAtMs: 1,
      membershipTtlMs: 2000,
      members: [],
      shards: [],
      streams: {
        inbox: { name: "TROUPE_INBOX", messages: 0 },
        events: { name: "TROUPE_EVENTS", messages: 0 },
        deltas: { name: "TROUPE_DELTAS", messages: 0 },
        deadLetter: { name: "TROUPE_DEADLETTER", messages: 5 },
        transcript: { name: "TROUPE_TRANSCRIPT", messages: 0 },
      },
      unroutableDeadLetters: 2,
    });
    expect(status.totals.unroutableDeadLetters).toBe(2);
    expect(formatClusterStatus(status)).toContain(
      "dead letters  5 (2 unroutable subjects; troupe dead-letters lists them)",
    );
  });
});
