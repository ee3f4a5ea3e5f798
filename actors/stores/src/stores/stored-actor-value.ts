import { TroupeError } from "@troupe/protocol";
import { Packr } from "msgpackr";
import { decodeActorRecord, encodeActorRecord, type ActorRecord } from "@troupe/step/internal";

const packr = new Packr({ useRecords: false, moreTypes: false });
const COLON = 0x3a;

/**
 * The bytes stored for an actor's latest generation (a Redis string):
 *
 * `<generation>:<confirmed 0|1>:<recordLength>:` (ASCII) · the record without its
 * outbox (msgpack, `recordLength` bytes) · the outbox (a msgpack array; absent
 * once confirmed, or when empty).
 *
 * One string rather than a hash: a hash with a value over Redis's
 * `hash-max-listpack-value` (64 bytes by default) is a hashtable, ≈ 300 bytes
 * more per actor. The header lets the commit script compare the generation and
 * copy the record into the history without decoding msgpack; the outbox comes
 * last so that confirming it cuts it off (a published outbox is never needed
 * again). Earlier generations kept in the history are the record part alone.
 */
export interface StoredActorValue {
  readonly generation: number;
  readonly confirmed: boolean;
  /** The record (its `outbox` as stored: empty once confirmed). */
  readonly record: ActorRecord;
}

/**
 * Encodes a newly committed generation (unconfirmed, outbox included).
 *
 * @param record - the generation.
 * @returns the value to store.
 */
export function encodeStoredActorValue(record: ActorRecord): Buffer {
  const body = encodeActorRecord({ ...record, outbox: [] });
  const outbox = record.outbox.length === 0 ? undefined : packr.pack(record.outbox);
  const header = Buffer.from(`${record.generation}:0:${body.byteLength}:`, "latin1");
  return Buffer.concat(outbox === undefined ? [header, body] : [header, body, outbox]);
}

/**
 * Reads a value written by {@link encodeStoredActorValue} (or rewritten by the
 * confirm script).
 *
 * @param value - the stored bytes.
 * @returns generation, confirmation and the record with its outbox (empty when cut off).
 * @throws TroupeError `internal` when the header is malformed (not a value of this layout).
 */
export function decodeStoredActorValue(value: Uint8Array): StoredActorValue {
  const first = value.indexOf(COLON);
  const second = first < 1 ? -1 : value.indexOf(COLON, first + 1);
  const third = second < 0 ? -1 : value.indexOf(COLON, second + 1);
  const text = (from: number, to: number) =>
    Buffer.from(value.buffer, value.byteOffset + from, Math.max(0, to - from)).toString("latin1");
  const generation = third < 0 ? Number.NaN : Number(text(0, first));
  const confirmed = third < 0 ? "" : text(first + 1, second);
  const length = third < 0 ? Number.NaN : Number(text(second + 1, third));
  if (
    !Number.isSafeInteger(generation) ||
    !Number.isSafeInteger(length) ||
    (confirmed !== "0" && confirmed !== "1") ||
    third + 1 + length > value.byteLength
  ) {
    throw new TroupeError(
      "internal",
      "stored actor value has no valid <generation>:<confirmed>:<length>: header (a key written by another layout?)",
      { details: { bytes: value.byteLength } },
    );
  }
  const start = third + 1;
  const record = decodeActorRecord(value.subarray(start, start + length));
  const rest = value.subarray(start + length);
  const outbox = rest.byteLength === 0 ? [] : (packr.unpack(rest) as ActorRecord["outbox"]);
  return { generation, confirmed: confirmed === "1", record: { ...record, outbox } };
}

/**
 * The value with its outbox marked published and cut off (what the confirm
 * script writes; the in-memory store uses it too).
 *
 * @param value - a stored value.
 * @returns the confirmed value.
 */
export function confirmStoredActorValue(value: Uint8Array): Buffer {
  const { generation } = decodeStoredActorValue(value);
  const body = storedRecordBytes(value);
  return Buffer.concat([Buffer.from(`${generation}:1:${body.byteLength}:`, "latin1"), body]);
}

/**
 * The record part of a stored value (the history entry it becomes when a newer
 * generation is committed).
 *
 * @param value - a stored value.
 * @returns the record's msgpack bytes (its outbox empty).
 */
export function storedRecordBytes(value: Uint8Array): Uint8Array {
  const first = value.indexOf(COLON);
  const second = value.indexOf(COLON, first + 1);
  const third = value.indexOf(COLON, second + 1);
  const length = Number(Buffer.from(value.subarray(second + 1, third)).toString("latin1"));
  return value.subarray(third + 1, third + 1 + length);
}
