import { describe, expect, it } from "vitest";
import { subjectsCollide } from "../testing/subjects-collide.js";
import { deadLetterSubject } from "./dead-letter-subject.js";
import { eventSubject } from "./event-subject.js";
import { inboxSubject } from "./inbox-subject.js";
import { inboxSubjectMapping } from "./inbox-subject-mapping.js";
import { shardInboxSubject } from "./shard-inbox-subject.js";
import { builtinEventSchemas } from "../v1/event-schemas.js";
import {
  DEAD_LETTER_STREAM_SUBJECTS,
  DELTA_STREAM_SUBJECTS,
  eventStreamSubjects,
  INBOX_STREAM_SUBJECTS,
  LEGACY_EVENT_STREAM_SUBJECTS,
  TRANSCRIPT_STREAM_SUBJECTS,
} from "./stream-subjects.js";
import { subjectCovers } from "./subject-overlap.js";

const KINDS = ["session", "run", "tool", "counter", "events", "in", "Inbox"];
const EVENT_STREAM_SUBJECTS = eventStreamSubjects({ kinds: KINDS });

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
      for (const kind of ["session", "events", "in", "Inbox", "counter"]) {
        const address = { kind, id };
        expect(capturedBy(shardInboxSubject(3, address))).toEqual(["inbox"]);
        expect(capturedBy(eventSubject(address, "run.completed"))).toEqual(["events"]);
        expect(capturedBy(eventSubject(address, "counter.changed"))).toEqual(
          kind === "session" ? [] : ["events"],
        );
        expect(capturedBy(deadLetterSubject(kind, id))).toEqual(["deadLetter"]);
        expect(capturedBy(inboxSubject(address))).toEqual([]);
      }
    }
  });

  it("the public inbox mapping catches public inbox subjects and nothing internal or published by hosts", () => {
    const { source } = inboxSubjectMapping(64);
    expect(subjectsCollide(source, inboxSubject({ kind: "session", id: "s1" }))).toBe(true);
    for (const internal of [
      ...INBOX_STREAM_SUBJECTS,
      ...EVENT_STREAM_SUBJECTS,
      ...DEAD_LETTER_STREAM_SUBJECTS,
    ]) {
      expect(subjectsCollide(source, internal)).toBe(false);
    }
    expect(subjectsCollide(source, deadLetterSubject("session", "in"))).toBe(false);
  });
});

describe("eventStreamSubjects (issue #11: deltas apart from the durable events)", () => {
  const session = { kind: "session", id: "s1" };

  it("captures every built-in event type on session subjects except the transient run.delta", () => {
    for (const type of Object.keys(builtinEventSchemas)) {
      expect(capturedBy(eventSubject(session, type)), type).toEqual(
        type === "run.delta" ? ["deltas"] : ["events"],
      );
    }
  });

  it("takes whole namespaces without a transient type and lists the run namespace type by type", () => {
    expect(eventStreamSubjects({ kinds: ["session", "counter"] })).toEqual([
      "troupe.counter.*.events.>",
      "troupe.session.*.events.message.>",
      "troupe.session.*.events.question.>",
      "troupe.session.*.events.run.cancelled",
      "troupe.session.*.events.run.completed",
      "troupe.session.*.events.run.failed",
      "troupe.session.*.events.run.started",
      "troupe.session.*.events.session.>",
      "troupe.session.*.events.subagent.>",
      "troupe.session.*.events.tool.>",
    ]);
  });

  it("a type added to the registry later is captured, in a new namespace or in the run namespace", () => {
    const eventTypes = [...Object.keys(builtinEventSchemas), "command.settled", "run.steered"];
    const subjects = eventStreamSubjects({ eventTypes });
    const captured = (type: string) =>
      subjects.some((pattern) => subjectCovers(pattern, eventSubject(session, type)));
    expect(captured("command.settled")).toBe(true);
    expect(captured("run.steered")).toBe(true);
    expect(captured("run.delta")).toBe(false);
  });

  it("skips kinds that cannot be a subject token, and the session kind", () => {
    expect(eventStreamSubjects({ kinds: ["a.b", "*", ""], eventTypes: [] })).toEqual([]);
    expect(eventStreamSubjects({ kinds: ["session"], eventTypes: ["x.y"] })).toEqual([
      "troupe.session.*.events.x.>",
    ]);
  });

  it("the legacy catch-all overlaps the deltas stream (why it is replaced before the deltas stream is made)", () => {
    expect(subjectsCollide(LEGACY_EVENT_STREAM_SUBJECTS[0], DELTA_STREAM_SUBJECTS[0])).toBe(true);
  });
});

describe("subjectCovers", () => {
  it("is true only when the pattern matches everything the other one matches", () => {
    expect(subjectCovers("a.*.>", "a.b.c")).toBe(true);
    expect(subjectCovers("a.*.>", "a.*.c.>")).toBe(true);
    expect(subjectCovers("a.b.c", "a.*.c")).toBe(false);
    expect(subjectCovers("a.*", "a.>")).toBe(false);
    expect(subjectCovers("a.>", "a")).toBe(false);
    expect(subjectCovers("a.b", "a.b")).toBe(true);
  });
});
