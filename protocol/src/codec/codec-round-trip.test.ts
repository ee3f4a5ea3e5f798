import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  eventEnvelopeArbitrary,
  messageEnvelopeArbitrary,
} from "../testing/envelope-arbitraries.js";
import { eventPayloadArbitraries } from "../testing/event-payload-arbitraries.js";
import { messagePayloadArbitraries } from "../testing/message-payload-arbitraries.js";
import { builtinEventSchemas } from "../v1/event-schemas.js";
import { builtinMessageSchemas, hostMessageSchemas } from "../v1/message-schemas.js";
import { decodeEvent } from "./decode-event.js";
import { decodeMessage } from "./decode-message.js";
import { encodeEvent } from "./encode-event.js";
import { encodeMessage } from "./encode-message.js";

/** Cases per message or event type; 37 types → 7400 cases, each through both codecs. */
const RUNS_PER_TYPE = 200;
const codecs = ["msgpack", "json"] as const;
const messageSchemas = { ...builtinMessageSchemas, ...hostMessageSchemas };
const defaults = { id: "unused", timestampMs: 0 };

describe("every message type round-trips through both codecs", () => {
  it.each(Object.entries(messagePayloadArbitraries))(
    `%s (property, ${RUNS_PER_TYPE} cases)`,
    (type, payload) => {
      fc.assert(
        fc.property(messageEnvelopeArbitrary(type, payload), (envelope) => {
          expect(
            messageSchemas[type as keyof typeof messageSchemas].safeParse(envelope.payload).success,
          ).toBe(true);
          for (const codec of codecs) {
            const { bytes, contentType } = encodeMessage(envelope, { codec });
            const decoded = decodeMessage(bytes, {
              contentType,
              schemas: messageSchemas,
              defaults,
            });
            expect(decoded).toEqual(envelope);
            // Without the header, sniffing finds the same codec.
            expect(decodeMessage(bytes, { schemas: messageSchemas, defaults })).toEqual(decoded);
          }
        }),
        { numRuns: RUNS_PER_TYPE },
      );
    },
  );
});

describe("every event type round-trips through both codecs", () => {
  it.each(Object.entries(eventPayloadArbitraries))(
    `%s (property, ${RUNS_PER_TYPE} cases)`,
    (type, payload) => {
      fc.assert(
        fc.property(eventEnvelopeArbitrary(type, payload), (envelope) => {
          expect(
            builtinEventSchemas[type as keyof typeof builtinEventSchemas].safeParse(
              envelope.payload,
            ).success,
          ).toBe(true);
          for (const codec of codecs) {
            const { bytes, contentType } = encodeEvent(envelope, { codec });
            expect(decodeEvent(bytes, { contentType })).toEqual(envelope);
          }
        }),
        { numRuns: RUNS_PER_TYPE },
      );
    },
  );
});

describe("registries and arbitraries", () => {
  it("cover the same types", () => {
    expect(Object.keys(messagePayloadArbitraries).sort()).toEqual(
      Object.keys(messageSchemas).sort(),
    );
    expect(Object.keys(eventPayloadArbitraries).sort()).toEqual(
      Object.keys(builtinEventSchemas).sort(),
    );
  });
});
