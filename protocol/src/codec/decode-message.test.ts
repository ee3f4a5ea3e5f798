import { pack } from "msgpackr";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { DecodeError, DecodeFailureReason } from "@troupe/addressing";
import { expectDecodeFailure } from "../testing/expect-decode-failure.js";
import { builtinMessageSchemas, hostMessageSchemas } from "../v1/message-schemas.js";
import { decodeMessage, type DecodeMessageOptions } from "./decode-message.js";
import { encodeMessage } from "./encode-message.js";

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
describe("decodeMessage", () => {
  it('decodes the plain body {"type":"user.message","text":"hello"} with defaults applied', () => {
    const expected = {
      v: 1,
      id: "session/demo-1:in:1",
      type: "user.message",
      payload: { text: "hello" },
      meta: { timestampMs: 1_700_000_000_000, actor: "session/demo-1" },
    };
    const body = json('{"type":"user.message","text":"hello"}');
    expect(decodeMessage(body, options)).toEqual(expected);
    expect(decodeMessage(body, { ...options, contentType: "application/json" })).toEqual(expected);
  });

  it("takes all other top-level fields of a plain body as the payload", () => {
    const body = json('{"type":"user.message","text":"hi","clientMessageId":"c-1"}');
    expect(decodeMessage(body, options).payload).toEqual({ text: "hi", clientMessageId: "c-1" });
  });

  it("decodes full envelopes in msgpack, by header or by sniffing", () => {
    const bytes = pack(fullEnvelope);
    expect(decodeMessage(bytes, { ...options, contentType: "application/msgpack" })).toEqual(
      fullEnvelope,
    );
    expect(decodeMessage(bytes, options)).toEqual(fullEnvelope);
  });

  it("fills a full envelope's missing id, meta, timestamp and actor from defaults, keeping what it has", () => {
    const { id: _id, ...withoutId } = fullEnvelope;
    const noTimestamp = { ...withoutId, meta: { actor: "run/r9" } };
    expect(decodeMessage(pack(noTimestamp), options)).toEqual({
      ...fullEnvelope,
      id: defaults.id,
      meta: { actor: "run/r9", timestampMs: defaults.timestampMs },
    });
    const noMeta = { ...fullEnvelope, meta: undefined };
    expect(decodeMessage(pack(noMeta), options).meta).toEqual({
      actor: defaults.actor,
      timestampMs: defaults.timestampMs,
    });
    const { actor: _actor, ...defaultsWithoutActor } = defaults;
    const plain = decodeMessage(json('{"type":"run.cancel"}'), {
      subject,
      defaults: defaultsWithoutActor,
    });
    expect(plain.meta).toEqual({ timestampMs: defaults.timestampMs });
  });

  it("reads 64-bit msgpack integers that fit in 53 bits as numbers (Go and Rust clients write them)", () => {
    const timestamp = [0xd3, 0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00];
    const bytes = new Uint8Array([
      0x84,
      0xa4,
      ...json("type"),
      0xaa,
      ...json("run.cancel"),
      0xa1,
      0x76,
      0x01,
      0xa7,
      ...json("payload"),
      0x80,
      0xa4,
      ...json("meta"),
      0x81,
      0xab,
      ...json("timestampMs"),
      ...timestamp,
    ]);
    const message = decodeMessage(bytes, options);
    expect(message.meta.timestampMs).toBe(0x018bcfe56800);
    expect(message.payload).toEqual({});
  });

  it("uses the given registry: custom types in, others out", () => {
    const schemas = { "counter.increment": z.object({ by: z.number().int() }) };
    const message = decodeMessage(json('{"type":"counter.increment","by":2}'), {
      ...options,
      schemas,
    });
    expect(message).toMatchObject({ type: "counter.increment", payload: { by: 2 } });
    decodeFailure(
      () => decodeMessage(json('{"type":"user.message","text":"hi"}'), { ...options, schemas }),
      "unknown_type",
    );
  });

  it("accepts host messages only when the host adds their schemas", () => {
    const body = encodeMessage({
      v: 1,
      id: "e1",
      type: "effect.completed",
      payload: { effectId: "1.0", output: { ok: true } },
      meta: { timestampMs: 1 },
    }).bytes;
    decodeFailure(() => decodeMessage(body, options), "unknown_type");
    const schemas = { ...builtinMessageSchemas, ...hostMessageSchemas };
    expect(decodeMessage(body, { ...options, schemas }).payload).toEqual({
      effectId: "1.0",
      output: { ok: true },
    });
  });

  it("turns a payload schema that throws into a DecodeError", () => {
    const schemas = {
      boom: z.object({}).transform(() => {
        throw new Error("schema bug");
      }),
    };
    decodeFailure(
      () => decodeMessage(json('{"type":"boom"}'), { ...options, schemas }),
      "schema_invalid",
    );
  });

  it("does not modify the bytes it reads", () => {
    const bytes = pack(fullEnvelope);
    const copy = Uint8Array.from(bytes);
    decodeMessage(bytes, options);
    expect(Uint8Array.from(bytes)).toEqual(copy);
    expect(Object.getOwnPropertyNames(bytes).filter((name) => !/^\d+$/.test(name))).toEqual([]);
  });
});
