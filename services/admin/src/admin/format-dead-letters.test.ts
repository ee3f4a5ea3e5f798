import { describe, expect, it } from "vitest";
import { assembleClusterStatus } from "./assemble-cluster-status.js";
import { formatClusterStatus } from "./format-cluster-status.js";
import { formatDeadLetters } from "./format-dead-letters.js";

describe("dead letters in the admin views (issue #11)", () => {
  it("formatDeadLetters prints one row per dead letter, newest first as given, the published subject, the body's start, reasons cut at 120 characters", () => {
    const text = formatDeadLetters([
      {
        sequence: 12,
        storedAtMs: Date.UTC(2026, 10, 30, 22, 0, 0),
        deadLetterSubject: "_troupe.deadletter.unroutable",
        code: "unroutable_subject",
        reason: `No route for the subject "troupe.session.a.b.in": ${"x".repeat(200)}`,
        subject: "troupe.session.a.b.in",
        publicSubject: "troupe.session.a.b.in",
      },
      {
        sequence: 3,
        storedAtMs: Date.UTC(2026, 10, 30, 21, 0, 0),
        deadLetterSubject: "_troupe.deadletter.session.s1",
        code: "decode_failed:schema_invalid",
        reason: "The run.steer body is invalid: text: Expected a text.",
        subject: "_troupe.inbox.5.session.s1",
        publicSubject: "troupe.session.s1.in",
        preview: '{"type":"run.steer",\n"text":"" and then a long tail of more text…',
      },
    ]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^seq {2}stored at +code +subject +body +reason$/);
    expect(lines[1]).toMatch(
      /^ {1}12 {2}2026-11-30T22:00:00\.000Z {2}unroutable_subject +troupe\.session\.a\.b\.in +- +No route for the subject/,
    );
    expect(lines[1]!.endsWith("…")).toBe(true);
    expect(lines[2]).toContain("decode_failed:schema_invalid");
    // The user-facing subject, not the shard inbox subject; the newline escaped, cut at 40.
    expect(lines[2]).toContain("troupe.session.s1.in");
    expect(lines[2]).not.toContain("_troupe.inbox");
    expect(lines[2]).toContain('{"type":"run.steer",\\n"text":"" and the…');
    expect(formatDeadLetters([])).toBe("no dead letters");
  });

  it("troupe status says how many dead letters are unroutable publishes and points to troupe deadletters when there are any", () => {
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
      "dead letters  5 (2 unroutable subjects) — troupe deadletters lists them",
    );
    const none = assembleClusterStatus({
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
        deadLetter: { name: "TROUPE_DEADLETTER", messages: 0 },
        transcript: { name: "TROUPE_TRANSCRIPT", messages: 0 },
      },
      unroutableDeadLetters: 0,
    });
    expect(formatClusterStatus(none)).toMatch(/dead letters {2}0\n/);
  });
});
