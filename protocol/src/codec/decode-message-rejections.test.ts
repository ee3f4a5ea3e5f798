import { Packr, pack } from "msgpackr";
import { describe, expect, it } from "vitest";
import type { DecodeError, DecodeFailureReason } from "../errors/decode-error.js";
import { PayloadTooLargeError } from "../errors/payload-too-large-error.js";
import { expectDecodeFailure } from "../testing/expect-decode-failure.js";
import { decodeMessage, type DecodeMessageOptions } from "./decode-message.js";

const subject = "_troupe.inbox.38.session.demo-1";
const defaults = {
  id: "session/demo-1:in:1",
  timestampMs: 1_700_000_000_000,
  actor: "session/demo-1",
};
const options: DecodeMessageOptions = { subject, defaults };
const json = (text: string) => new TextEncoder().encode(text);

function decodeFailure(action: () => unknown, reason: DecodeFailureReason): DecodeError {
  return expectDecodeFailure(action, reason, subject);
}

const fullEnvelope = {
  v: 1,
  id: "m-42",
  type: "run.cancel",
  payload: { runId: "r1", reason: "user pressed stop" },
  meta: { actor: "session/demo-1", timestampMs: 1_600_000_000_000, correlationId: "c1" },
};
describe("decodeMessage refuses", () => {
  it("trusts the Content-Type header over the bytes", () => {
    decodeFailure(
      () =>
        decodeMessage(json('{"type":"user.message","text":"hi"}'), {
          ...options,
          contentType: "application/msgpack",
        }),
      "undecodable",
    );
    const error = decodeFailure(
      () => decodeMessage(pack(fullEnvelope), { ...options, contentType: "text/plain" }),
      "undecodable",
    );
    expect(error.message).toContain("Unsupported content type");
  });

  it("reports an unknown type with the known ones", () => {
    const error = decodeFailure(
      () => decodeMessage(json('{"type":"user.shout","text":"HI"}'), options),
      "unknown_type",
    );
    expect(error.message).toContain('Unknown message type "user.shout"');
    expect(error.message).toContain("user.message");
    decodeFailure(() => decodeMessage(json('{"type":"constructor"}'), options), "unknown_type");
    decodeFailure(() => decodeMessage(json('{"type":"__proto__"}'), options), "unknown_type");
  });

  it("refuses versions other than 1", () => {
    for (const v of [2, 0, "1", null]) {
      const error = decodeFailure(
        () => decodeMessage(pack({ ...fullEnvelope, v }), options),
        "unsupported_version",
      );
      expect(error.message).toContain("this decoder reads v: 1");
    }
  });

  it("reports schema problems with zod issues whose paths start at the envelope", () => {
    const error = decodeFailure(
      () => decodeMessage(json('{"type":"user.message","text":""}'), options),
      "schema_invalid",
    );
    expect(error.issues?.[0]?.path).toEqual(["payload", "text"]);
    expect(error.message).toMatch(/^The user\.message payload is invalid: payload\.text: /);
    const envelope = decodeFailure(
      () => decodeMessage(pack({ ...fullEnvelope, meta: { timestampMs: -5 } }), options),
      "schema_invalid",
    );
    expect(envelope.issues?.[0]?.path).toEqual(["meta", "timestampMs"]);
    decodeFailure(() => decodeMessage(json('{"text":"no type"}'), options), "schema_invalid");
    decodeFailure(
      () => decodeMessage(pack({ ...fullEnvelope, meta: "now" }), options),
      "schema_invalid",
    );
    decodeFailure(
      () => decodeMessage(pack({ ...fullEnvelope, meta: { actor: "inbox/x" } }), options),
      "schema_invalid",
    );
  });

  it("refuses bodies over the limit before parsing them", () => {
    const garbage = new Uint8Array(2048).fill(0xc1);
    try {
      decodeMessage(garbage, { ...options, maxPayloadBytes: 1024 });
      expect.unreachable();
    } catch (error) {
      expect(PayloadTooLargeError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ sizeBytes: 2048, maxBytes: 1024, subject });
    }
  });

  it("refuses __proto__ keys anywhere and leaves Object.prototype alone", () => {
    const bodies = [
      '{"type":"user.message","text":"hi","__proto__":{"polluted":true}}',
      '{"type":"user.message","text":"hi","metadata":{"__proto__":{"polluted":true}}}',
      '{"v":1,"type":"user.message","payload":{"text":"hi"},"meta":{"__proto__":{"polluted":true}}}',
    ];
    for (const body of bodies) {
      const error = decodeFailure(() => decodeMessage(json(body), options), "undecodable");
      expect(error.message).toContain('the key "__proto__" is not allowed');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["an empty body", new Uint8Array()],
    ["a JSON array", json("[1,2]")],
    ["a JSON string", json('"hello"')],
    ["a JSON null", json("null")],
    ["broken JSON", json('{"type":')],
    ["invalid UTF-8 in JSON", new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
    ["a msgpack array", pack([1, 2])],
    ["msgpack with trailing bytes", new Uint8Array([...pack({ type: "run.cancel" }), 0x01])],
    ["truncated msgpack", pack(fullEnvelope).subarray(0, 20)],
    ["a msgpack NaN", pack({ type: "run.cancel", runId: Number.NaN })],
    ["a msgpack binary value", pack({ type: "run.cancel", runId: new Uint8Array([1]) })],
    [
      "a msgpack timestamp",
      new Packr({ useRecords: false }).pack({ type: "run.cancel", at: new Date(0) }),
    ],
    [
      "a 64-bit integer beyond 2^53",
      new Uint8Array([
        0x82,
        0xa4,
        ...json("type"),
        0xaa,
        ...json("run.cancel"),
        0xa1,
        0x6e,
        0xd3,
        0x7f,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
      ]),
    ],
  ])("refuses %s as undecodable", (_name, bytes) => {
    decodeFailure(() => decodeMessage(bytes, options), "undecodable");
  });
});
