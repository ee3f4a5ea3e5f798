import { describe, expect, it } from "vitest";
import { PayloadTooLargeError } from "@troupe/addressing";
import type { MessageEnvelope } from "../v1/message-envelope.js";
import { encodeEvent } from "./encode-event.js";
import { encodeMessage } from "./encode-message.js";
import { decodeMsgpack as unpack } from "./msgpack-codec.js";
import { DEFAULT_MAX_PAYLOAD_BYTES } from "./payload-limit.js";

const message: MessageEnvelope<"user.message"> = {
  v: 1,
  id: "m1",
  type: "user.message",
  payload: { text: "hello" },
  meta: { timestampMs: 1_700_000_000_000 },
};

describe("encodeMessage and encodeEvent", () => {
  it("write msgpack by default and JSON on request, with the matching content type", () => {
    const packed = encodeMessage(message);
    expect(packed.contentType).toBe("application/msgpack");
    expect(unpack(packed.bytes)).toEqual(message);
    const json = encodeMessage(message, { codec: "json" });
    expect(json.contentType).toBe("application/json");
    expect(new TextDecoder().decode(json.bytes)).toBe(
      '{"v":1,"id":"m1","type":"user.message","payload":{"text":"hello"},"meta":{"timestampMs":1700000000000}}',
    );
  });

  it("write whole numbers beyond 32 bits as msgpack 64-bit integers, not floats", () => {
    const bytes = encodeMessage({ ...message, meta: { timestampMs: 0x018b_cfe5_6800 } }).bytes;
    const at = Buffer.from(bytes).indexOf(Buffer.from("timestampMs")) + "timestampMs".length;
    expect(Array.from(bytes.subarray(at, at + 9))).toEqual([
      0xd3, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00,
    ]);
    expect(
      unpack(encodeMessage({ ...message, payload: { text: "x", n: -(2 ** 40) } }).bytes),
    ).toMatchObject({
      payload: { n: -(2 ** 40) },
    });
  });

  it("drop properties set to undefined in both codecs", () => {
    const withUndefined = { ...message, meta: { timestampMs: 5, actor: undefined } };
    expect(unpack(encodeMessage(withUndefined).bytes)).toEqual({
      ...message,
      meta: { timestampMs: 5 },
    });
    expect(
      JSON.parse(new TextDecoder().decode(encodeMessage(withUndefined, { codec: "json" }).bytes)),
    ).toEqual({
      ...message,
      meta: { timestampMs: 5 },
    });
  });

  it("refuse bytes above the limit with PayloadTooLargeError carrying both sizes", () => {
    const big = { ...message, payload: { text: "x".repeat(DEFAULT_MAX_PAYLOAD_BYTES) } };
    for (const codec of ["msgpack", "json"] as const) {
      try {
        encodeMessage(big, { codec, subject: "troupe.session.s1.in" });
        expect.unreachable();
      } catch (error) {
        expect(PayloadTooLargeError.isInstance(error)).toBe(true);
        const tooLarge = error as PayloadTooLargeError;
        expect(tooLarge.maxBytes).toBe(DEFAULT_MAX_PAYLOAD_BYTES);
        expect(tooLarge.sizeBytes).toBeGreaterThan(DEFAULT_MAX_PAYLOAD_BYTES);
        expect(tooLarge.subject).toBe("troupe.session.s1.in");
      }
    }
  });

  it("accept a body exactly at the limit", () => {
    const size = encodeMessage(message, { codec: "json" }).bytes.byteLength;
    expect(encodeMessage(message, { codec: "json", maxPayloadBytes: size }).bytes.byteLength).toBe(
      size,
    );
    expect(() => encodeMessage(message, { codec: "json", maxPayloadBytes: size - 1 })).toThrow(
      PayloadTooLargeError,
    );
  });

  it("refuse data outside the JSON data model with a TypeError naming the path", () => {
    const bad = { ...message, payload: { text: "x", at: new Date(0) } };
    expect(() => encodeMessage(bad)).toThrow(
      new TypeError("Cannot encode $.payload.at: a Date is not a plain object or array."),
    );
    expect(() => encodeMessage({ ...message, payload: { n: Number.NaN } })).toThrow(TypeError);
  });

  it("refuse invalid options", () => {
    expect(() => encodeMessage(message, { maxPayloadBytes: 0 })).toThrow(RangeError);
    expect(() => encodeMessage(message, { codec: "yaml" as "json" })).toThrow(RangeError);
  });

  it("encode events the same way", () => {
    const event = {
      v: 1 as const,
      id: "session/s1:ev:1",
      type: "session.idle",
      payload: { sessionId: "s1" },
      meta: { actor: "session/s1", seq: 1, timestampMs: 1 },
    };
    expect(unpack(encodeEvent(event).bytes)).toEqual(event);
  });
});
