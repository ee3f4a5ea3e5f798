import { TroupeError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { type ActorRecord, decodeActorRecord } from "@troupe/step/internal";
import {
  confirmStoredActorValue,
  decodeStoredActorValue,
  encodeStoredActorValue,
  storedRecordBytes,
} from "./stored-actor-value.js";

const record: ActorRecord = {
  address: "counter/v1",
  generation: 12,
  inboxSeq: 40,
  machineVersion: "1",
  state: { value: "counting", context: { count: 3 } },
  eventSeq: 5,
  effects: [{ effectId: "40.0", effect: "double", input: { count: 3 } }],
  timers: [],
  outbox: [
    {
      subject: "troupe.counter.v1.events.counter.changed",
      messageId: "counter/v1:ev:5",
      contentType: "application/json",
      body: new Uint8Array(500).fill(1),
    },
  ],
};

describe("the stored actor value (issue #12)", () => {
  it("round-trips a generation with its outbox, unconfirmed, behind a <gen>:0:<length>: header", () => {
    const value = encodeStoredActorValue(record);
    const header = /^12:0:(\d+):/.exec(value.toString("latin1"))!;
    expect(header).not.toBeNull();
    const decoded = decodeStoredActorValue(value);
    expect(decoded.generation).toBe(12);
    expect(decoded.confirmed).toBe(false);
    expect(decoded.record).toEqual({
      ...record,
      outbox: [{ ...record.outbox[0], body: Buffer.from(record.outbox[0]!.body) }],
    });
    // The record part is the record without its outbox: what the history keeps.
    expect(storedRecordBytes(value).byteLength).toBe(Number(header[1]));
    expect(decodeActorRecord(storedRecordBytes(value))).toEqual({ ...record, outbox: [] });
  });

  it("confirming cuts the outbox off and sets the flag; the record part is unchanged", () => {
    const value = encodeStoredActorValue(record);
    const confirmed = confirmStoredActorValue(value);
    expect(confirmed.byteLength).toBeLessThan(value.byteLength - 500);
    expect(decodeStoredActorValue(confirmed)).toEqual({
      generation: 12,
      confirmed: true,
      record: { ...record, outbox: [] },
    });
    expect(Buffer.from(storedRecordBytes(confirmed))).toEqual(
      Buffer.from(storedRecordBytes(value)),
    );
  });

  it("a value without a valid header is refused with TroupeError internal", () => {
    for (const bad of ["", "12:0:", "x:0:3:abc", "12:2:3:abc", "12:0:99:abc"]) {
      const error = (() => {
        try {
          decodeStoredActorValue(Buffer.from(bad, "latin1"));
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(TroupeError.isInstance(error) && error.code).toBe("internal");
    }
  });
});
