import { pack } from "msgpackr";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DecodeError, type DecodeFailureReason, PayloadTooLargeError } from "@troupe/addressing";
import { decodeEvent } from "./decode-event.js";
import { encodeEvent } from "./encode-event.js";

const subject = "troupe.session.s1.events.run.completed";
const event = {
  v: 1 as const,
  id: "session/s1:ev:7",
  type: "run.completed",
  payload: { runId: "r1", text: "Done.", usage: { inputTokens: 120, outputTokens: 8 } },
  meta: {
    actor: "session/s1",
    seq: 7,
    timestampMs: 1_700_000_000_000,
    causationId: "session/s1:in:3",
  },
};

function reasonOf(action: () => unknown): DecodeFailureReason {
  try {
    action();
  } catch (error) {
    if (DecodeError.isInstance(error)) {
      expect(error.subject).toBe(subject);
      return error.reason;
    }
    throw error;
  }
  throw new Error("expected a DecodeError");
}

describe("decodeEvent", () => {
  it("decodes events from both codecs and types the payload by event type", () => {
    for (const codec of ["msgpack", "json"] as const) {
      const { bytes, contentType } = encodeEvent(event, { codec });
      const decoded = decodeEvent(bytes, { contentType, subject });
      expect(decoded).toEqual(event);
      if (decoded.type === "run.completed") expect(decoded.payload.usage.outputTokens).toBe(8);
    }
  });

  it("requires a full envelope with actor and a sequence from 1", () => {
    expect(
      reasonOf(() => decodeEvent(pack({ type: "run.completed", runId: "r1" }), { subject })),
    ).toBe("schema_invalid");
    expect(
      reasonOf(() => decodeEvent(pack({ ...event, meta: { ...event.meta, seq: 0 } }), { subject })),
    ).toBe("schema_invalid");
    const { actor: _actor, ...withoutActor } = event.meta;
    expect(reasonOf(() => decodeEvent(pack({ ...event, meta: withoutActor }), { subject }))).toBe(
      "schema_invalid",
    );
  });

  it("refuses event types that cannot be subject tokens, unknown types and other versions", () => {
    expect(
      reasonOf(() => decodeEvent(pack({ ...event, type: "Run Completed" }), { subject })),
    ).toBe("schema_invalid");
    expect(reasonOf(() => decodeEvent(pack({ ...event, type: "run.exploded" }), { subject }))).toBe(
      "unknown_type",
    );
    expect(reasonOf(() => decodeEvent(pack({ ...event, v: 2 }), { subject }))).toBe(
      "unsupported_version",
    );
  });

  it("reports payload issues with paths from the envelope", () => {
    const bad = {
      ...event,
      payload: { ...event.payload, usage: { inputTokens: -1, outputTokens: 0 } },
    };
    try {
      decodeEvent(pack(bad), { subject });
      expect.unreachable();
    } catch (error) {
      expect((error as DecodeError).issues?.[0]?.path).toEqual(["payload", "usage", "inputTokens"]);
    }
  });

  it("drops payload fields it does not know (additive evolution)", () => {
    const newer = { ...event, payload: { ...event.payload, costUsd: 0.01 } };
    expect(decodeEvent(pack(newer), { subject }).payload).toEqual(event.payload);
  });

  it("accepts a custom registry", () => {
    const schemas = { "counter.changed": z.object({ value: z.number() }) };
    const custom = { ...event, type: "counter.changed", payload: { value: 3 } };
    expect(decodeEvent(pack(custom), { subject, schemas }).payload).toEqual({ value: 3 });
  });

  it("checks the payload limit first", () => {
    expect(() => decodeEvent(new Uint8Array(10), { maxPayloadBytes: 9 })).toThrow(
      PayloadTooLargeError,
    );
  });
});
