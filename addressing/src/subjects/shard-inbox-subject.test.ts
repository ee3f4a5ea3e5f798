import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../errors/decode-error.js";
import { subjectsCollide } from "../testing/subjects-collide.js";
import {
  parseShardInboxSubject,
  shardInboxFilter,
  shardInboxSubject,
} from "./shard-inbox-subject.js";

describe("shard inbox subjects", () => {
  it("are _troupe.inbox.<shard>.<kind>.<id>, consumed by shard with _troupe.inbox.<shard>.>", () => {
    const subject = shardInboxSubject(7, { kind: "session", id: "demo-1" });
    expect(subject).toBe("_troupe.inbox.7.session.demo-1");
    expect(shardInboxFilter(7)).toBe("_troupe.inbox.7.>");
    expect(subjectsCollide(shardInboxFilter(7), subject)).toBe(true);
    expect(subjectsCollide(shardInboxFilter(70), subject)).toBe(false);
    expect(parseShardInboxSubject(subject)).toEqual({ shard: 7, kind: "session", id: "demo-1" });
  });

  it("parse returns raw kind and id tokens without checking the address rules", () => {
    expect(parseShardInboxSubject("_troupe.inbox.0.inbox.ünïcode")).toEqual({
      shard: 0,
      kind: "inbox",
      id: "ünïcode",
    });
  });

  it.each([
    "_troupe.inbox.7.session",
    "_troupe.inbox.7.session.a.b",
    "_troupe.inbox.x.session.a",
    "_troupe.inbox.-1.session.a",
    "_troupe.inbox.07.session.a",
    "_troupe.inbox.99999999999.session.a",
    "_troupe.inbox.7..a",
    "_troupe.inbox.7.session.",
    "troupe.inbox.7.session.a",
    "_troupe.outbox.7.session.a",
    "",
  ])("parse refuses %j", (subject) => {
    expect(() => parseShardInboxSubject(subject)).toThrow(DecodeError);
    try {
      parseShardInboxSubject(subject);
    } catch (error) {
      expect((error as DecodeError).subject).toBe(subject);
      expect((error as DecodeError).reason).toBe("undecodable");
    }
  });

  it.each([-1, 1.5, Number.NaN])("refuse the shard %d", (shard) => {
    expect(() => shardInboxFilter(shard)).toThrow(RangeError);
    expect(() => shardInboxSubject(shard, { kind: "session", id: "s" })).toThrow(RangeError);
  });

  it("parse(build(shard, address)) gives them back (property, 500 cases)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom("session", "run", "tool", "subagent"),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/),
        (shard, kind, id) => {
          expect(parseShardInboxSubject(shardInboxSubject(shard, { kind, id }))).toEqual({
            shard,
            kind,
            id,
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
