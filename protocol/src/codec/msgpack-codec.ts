import { Packr, Unpackr, type Options } from "msgpackr";

// Plain MessagePack only (https://github.com/msgpack/msgpack/blob/master/spec.md):
// no msgpackr records, structured clones or extra types, so any msgpack library
// can read what we write. Maps become plain objects; 64-bit integers become numbers
// when they fit in 53 bits ("auto": documented in msgpackr's README, missing from
// its typings) and bigints otherwise, which the wire-value check then refuses.
const packr = new Packr({ useRecords: false, variableMapSize: true, moreTypes: false });
const unpackr = new Unpackr({
  useRecords: false,
  mapsAsObjects: true,
  moreTypes: false,
  structuredClone: false,
  int64AsType: "auto",
} as unknown as Options);

/**
 * Writes plain data as MessagePack. Whole numbers beyond 32 bits (Unix ms
 * timestamps, for one) that are safe integers are written as 64-bit integers rather than msgpackr's
 * default float64, so typed decoders in other languages read integers.
 *
 * @param value - plain data (see `WireValue`).
 * @returns a fresh byte array (not a view into msgpackr's shared buffer).
 */
export function encodeMsgpack(value: unknown): Uint8Array {
  return new Uint8Array(packr.pack(widenIntegers(value)));
}

/**
 * Writes data already made ready for msgpack by `checkedWireValue` with
 * `widenIntegers` (what `encodeBody` does), without walking it again.
 *
 * @param value - checked data, big integers as bigints.
 * @returns a fresh byte array.
 */
export function packCheckedMsgpack(value: unknown): Uint8Array {
  return new Uint8Array(packr.pack(value));
}

function widenIntegers(value: unknown): unknown {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && (value > 0xffff_ffff || value < -0x8000_0000)
      ? BigInt(value)
      : value;
  }
  if (Array.isArray(value)) return value.map(widenIntegers);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, widenIntegers(entry)]),
    );
  }
  return value;
}

/**
 * Reads one MessagePack value that fills `bytes` exactly.
 *
 * @param bytes - the body; it is not modified (msgpackr caches a `DataView` on the
 *   array it reads, so it is handed a fresh view).
 * @returns whatever msgpackr returns.
 * @throws whatever msgpackr throws for malformed input or trailing bytes.
 */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  return unpackr.unpack(bytes.subarray(0)) as unknown;
}
