import { describe, expect, it } from "vitest";
import { subjectsCollide } from "../testing/subjects-collide.js";
import { deadLetterSubject } from "./dead-letter-subject.js";
import { eventSubject } from "./event-subject.js";
import { inboxSubject } from "./inbox-subject.js";
import { inboxSubjectMapping } from "./inbox-subject-mapping.js";
import { shardInboxSubject } from "./shard-inbox-subject.js";
import { deltaSubject } from "./delta-subject.js";
import {
  DEAD_LETTER_STREAM_SUBJECTS,
  DELTA_STREAM_SUBJECTS,
  EVENT_STREAM_SUBJECTS,
  INBOX_STREAM_SUBJECTS,
  TRANSCRIPT_STREAM_SUBJECTS,
} from "./stream-subjects.js";
import { transcriptSubject } from "./transcript-subject.js";

const streams = {
  inbox: INBOX_STREAM_SUBJECTS,
  events: EVENT_STREAM_SUBJECTS,
  deltas: DELTA_STREAM_SUBJECTS,
  deadLetter: DEAD_LETTER_STREAM_SUBJECTS,
  transcript: TRANSCRIPT_STREAM_SUBJECTS,
};

function capturedBy(subject: string): string[] {
  return Object.entries(streams)
    .filter(([, patterns]) => patterns.some((pattern) => subjectsCollide(pattern, subject)))
    .map(([name]) => name);
}

describe("stream subject sets", () => {
  it("never overlap, so JetStream accepts all the streams in one account", () => {
    const all = Object.values(streams).flat();
    for (const [index, left] of all.entries()) {
      for (const right of all.slice(index + 1))
        expect(subjectsCollide(left, right), `${left} vs ${right}`).toBe(false);
    }
  });

  it("would overlap if internal subjects shared the public root (why they live under _troupe.)", () => {
    // nats-server 2.9.10 answers "subjects overlap with an existing stream" for these.
    expect(subjectsCollide("troupe.inbox.>", "troupe.*.*.events.>")).toBe(true);
    expect(subjectsCollide("troupe.deadletter.>", "troupe.*.*.events.>")).toBe(true);
  });

  it("each capture exactly their own subjects, even for kinds and ids named like other tokens", () => {
    for (const id of ["in", "events", "inbox", "deadletter", "x"]) {
      for (const kind of ["session", "events", "in", "Inbox"]) {
        const address = { kind, id };
        expect(capturedBy(shardInboxSubject(3, address))).toEqual(["inbox"]);
        expect(capturedBy(eventSubject(address, "run.completed"))).toEqual(["events"]);
        expect(capturedBy(deadLetterSubject(kind, id))).toEqual(["deadLetter"]);
        if (kind === "session") {
          expect(capturedBy(deltaSubject(id))).toEqual(["deltas"]);
          expect(capturedBy(transcriptSubject(id))).toEqual(["transcript"]);
        }
        expect(capturedBy(inboxSubject(address))).toEqual([]);
      }
    }
  });

  it("the public inbox mapping catches public inbox subjects and nothing internal or published by hosts", () => {
    const { source } = inboxSubjectMapping(64);
    expect(subjectsCollide(source, inboxSubject({ kind: "session", id: "s1" }))).toBe(true);
    for (const internal of [
      ...DELTA_STREAM_SUBJECTS,
      ...INBOX_STREAM_SUBJECTS,
      ...EVENT_STREAM_SUBJECTS,
      ...DEAD_LETTER_STREAM_SUBJECTS,
    ]) {
      expect(subjectsCollide(source, internal)).toBe(false);
    }
    expect(subjectsCollide(source, deadLetterSubject("session", "in"))).toBe(false);
  });
});
