import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeEvent } from "../codec/decode-event.js";
import { decodeMessage } from "../codec/decode-message.js";
import { encodeEvent } from "../codec/encode-event.js";
import { encodeMessage } from "../codec/encode-message.js";
import type { EventEnvelope } from "./event-envelope.js";
import { builtinEventSchemas } from "./event-schemas.js";
import type { MessageEnvelope } from "./message-envelope.js";
import { builtinMessageSchemas, hostMessageSchemas } from "./message-schemas.js";

// Recorded wire samples. If one of these tests fails, the wire contract changed:
// only additive, optional changes are allowed in v1 (see the package README).

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const messageSchemas = { ...builtinMessageSchemas, ...hostMessageSchemas };
const defaults = { id: "session/demo-1:in:1", timestampMs: 1_735_689_600_000 };
const messages = JSON.parse(fixture("messages.json").toString("utf8")) as Record<
  string,
  MessageEnvelope
>;
const events = JSON.parse(fixture("events.json").toString("utf8")) as Record<string, EventEnvelope>;
const msgpack = JSON.parse(fixture("msgpack.json").toString("utf8")) as Record<
  string,
  { base64: string; decoded: MessageEnvelope & EventEnvelope }
>;

describe("recorded fixtures", () => {
  it("the plain body of the README's nats pub example decodes to a user.message", () => {
    expect(
      decodeMessage(fixture("plain-user-message.json"), {
        subject: "troupe.session.demo-1.in",
        defaults,
      }),
    ).toEqual({
      v: 1,
      id: "session/demo-1:in:1",
      type: "user.message",
      payload: { text: "hello" },
      meta: { timestampMs: 1_735_689_600_000 },
    });
  });

  it("cover every message and event type", () => {
    expect(Object.keys(messages).sort()).toEqual(Object.keys(messageSchemas).sort());
    expect(Object.keys(events).sort()).toEqual(Object.keys(builtinEventSchemas).sort());
  });

  it.each(Object.entries(messages))("message %s decodes from JSON unchanged", (type, envelope) => {
    const bytes = new TextEncoder().encode(JSON.stringify(envelope));
    expect(decodeMessage(bytes, { schemas: messageSchemas, defaults })).toEqual(envelope);
    expect(envelope.type).toBe(type);
  });

  it.each(Object.entries(events))("event %s decodes from JSON unchanged", (type, envelope) => {
    const bytes = new TextEncoder().encode(JSON.stringify(envelope));
    expect(decodeEvent(bytes)).toEqual(envelope);
    expect(envelope.type).toBe(type);
  });

  it.each(Object.entries(msgpack).filter(([name]) => name !== "//"))(
    "%s: recorded msgpack bytes decode to the recorded envelope and re-encode to the same bytes",
    (name, { base64, decoded }) => {
      const bytes = new Uint8Array(Buffer.from(base64, "base64"));
      if (name.startsWith("message:")) {
        expect(
          decodeMessage(bytes, {
            contentType: "application/msgpack",
            schemas: messageSchemas,
            defaults,
          }),
        ).toEqual(decoded);
        expect(Buffer.from(encodeMessage(decoded).bytes).toString("base64")).toBe(base64);
      } else {
        expect(decodeEvent(bytes, { contentType: "application/msgpack" })).toEqual(decoded);
        expect(Buffer.from(encodeEvent(decoded).bytes).toString("base64")).toBe(base64);
      }
    },
  );
});
