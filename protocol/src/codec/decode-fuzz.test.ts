import fc from "fast-check";
import { Packr } from "msgpackr";
import { describe, expect, it } from "vitest";
import { DecodeError, PayloadTooLargeError } from "@troupe/addressing";
import {
  eventEnvelopeArbitrary,
  messageEnvelopeArbitrary,
} from "../testing/envelope-arbitraries.js";
import { eventPayloadArbitraries } from "../testing/event-payload-arbitraries.js";
import { messagePayloadArbitraries } from "../testing/message-payload-arbitraries.js";
import { eventEnvelopeSchema } from "../v1/event-envelope.js";
import { builtinEventSchemas } from "../v1/event-schemas.js";
import { messageEnvelopeSchema } from "../v1/message-envelope.js";
import {
  PUBLIC_COMMAND_TYPES,
  builtinMessageSchemas,
  hostMessageSchemas,
} from "../v1/message-schemas.js";
import type { PayloadSchemas } from "../v1/payload-of.js";
import { decodeEvent } from "./decode-event.js";
import { decodeMessage } from "./decode-message.js";

const messageSchemas: PayloadSchemas = { ...builtinMessageSchemas, ...hostMessageSchemas };
const eventSchemas: PayloadSchemas = builtinEventSchemas;
const defaults = { id: "session/s1:in:9", timestampMs: 1_700_000_000_000, actor: "session/s1" };
const richPackr = new Packr({ moreTypes: true, structuredClone: true, useRecords: true });
const utf8 = new TextEncoder();

/** Runs a decoder; it must return a valid envelope or throw one of the two typed errors. */
function decodesOrFailsTyped(
  decode: () => { type: string; payload: unknown },
  kind: "message" | "event",
): void {
  let envelope: { type: string; payload: unknown };
  try {
    envelope = decode();
  } catch (error) {
    if (error instanceof DecodeError || error instanceof PayloadTooLargeError) return;
    throw error;
  }
  const envelopeSchema = kind === "message" ? messageEnvelopeSchema : eventEnvelopeSchema;
  const schemas = kind === "message" ? messageSchemas : eventSchemas;
  expect(envelopeSchema.safeParse(envelope).success).toBe(true);
  expect(schemas[envelope.type]?.safeParse(envelope.payload).success).toBe(true);
}

function decodeAsMessage(bytes: Uint8Array, contentType?: string, maxPayloadBytes?: number): void {
  decodesOrFailsTyped(
    () =>
      decodeMessage(bytes, {
        contentType,
        maxPayloadBytes,
        schemas: messageSchemas,
        defaults,
        subject: "s",
      }),
    "message",
  );
}

function tryEncode(encode: () => Uint8Array): Uint8Array | undefined {
  try {
    return encode();
  } catch {
    return undefined;
  }
}

const contentTypeArbitrary = fc.constantFrom(
  undefined,
  "application/json",
  "application/msgpack",
  "text/plain",
  "",
);
const anyMessageEnvelope = fc.oneof(
  ...Object.entries(messagePayloadArbitraries).map(([type, payload]) =>
    messageEnvelopeArbitrary(type, payload),
  ),
);
const anyEventEnvelope = fc.oneof(
  ...Object.entries(eventPayloadArbitraries).map(([type, payload]) =>
    eventEnvelopeArbitrary(type, payload),
  ),
);
const byteEdits = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
  minLength: 1,
  maxLength: 6,
});

function editBytes(
  bytes: Uint8Array,
  edits: [number, number][],
  truncateTo: number | undefined,
): Uint8Array {
  const copy = Uint8Array.from(bytes);
  for (const [position, value] of edits) copy[position % copy.length] = value;
  return truncateTo === undefined ? copy : copy.subarray(0, truncateTo % (copy.length + 1));
}

const structuralMutation = fc.record({
  target: fc.constantFrom("root", "meta", "payload"),
  key: fc.constantFrom(
    "v",
    "id",
    "type",
    "payload",
    "meta",
    "timestampMs",
    "actor",
    "seq",
    "text",
    "runId",
    "__proto__",
    "x",
  ),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
});

function mutate(
  envelope: Record<string, unknown>,
  mutation: { target: string; key: string; value: unknown },
) {
  const copy = JSON.parse(JSON.stringify(envelope)) as Record<string, Record<string, unknown>>;
  const container: Record<string, unknown> =
    mutation.target === "root"
      ? copy
      : typeof copy[mutation.target] === "object" && copy[mutation.target] !== null
        ? copy[mutation.target]!
        : copy;
  if (mutation.value === undefined) delete container[mutation.key];
  else
    Object.defineProperty(container, mutation.key, {
      value: mutation.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

describe("decoding never throws anything but DecodeError or PayloadTooLargeError", () => {
  it("arbitrary bytes, any content type, sometimes over the limit (property, 2000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        contentTypeArbitrary,
        fc.option(fc.integer({ min: 1, max: 300 })),
        (bytes, contentType, limit) => {
          decodeAsMessage(bytes, contentType, limit ?? undefined);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("arbitrary JSON values in both codecs (property, 1500 cases)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        decodeAsMessage(utf8.encode(JSON.stringify(value)));
        decodeAsMessage(richPackr.pack(value));
      }),
      { numRuns: 1500 },
    );
  });

  it("arbitrary objects, including ones shaped like messages (property, 1000 cases)", () => {
    const typed = fc
      .tuple(fc.object(), fc.constantFrom(...Object.keys(messageSchemas), "nope"))
      .map(([object, type]) => ({ ...object, type }));
    fc.assert(
      fc.property(fc.oneof(fc.object(), typed), (object) => {
        const json = tryEncode(() => utf8.encode(JSON.stringify(object)));
        if (json !== undefined) decodeAsMessage(json);
        const packed = tryEncode(() => richPackr.pack(object));
        if (packed !== undefined) decodeAsMessage(packed);
      }),
      { numRuns: 1000 },
    );
  });

  it("anything msgpackr can pack with its extensions: dates, maps, sets, bigints, errors, cycles (property, 1000 cases)", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
        }),
        (value) => {
          const packed = tryEncode(() => richPackr.pack(value));
          if (packed !== undefined) decodeAsMessage(packed);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("valid message envelopes with edited or truncated bytes (property, 1500 cases)", () => {
    fc.assert(
      fc.property(
        anyMessageEnvelope,
        byteEdits,
        fc.option(fc.nat()),
        fc.boolean(),
        (envelope, edits, truncateTo, json) => {
          const bytes = json ? utf8.encode(JSON.stringify(envelope)) : richPackr.pack(envelope);
          decodeAsMessage(editBytes(bytes, edits, truncateTo ?? undefined));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("valid message envelopes with a field replaced or removed (property, 1500 cases)", () => {
    fc.assert(
      fc.property(
        anyMessageEnvelope,
        structuralMutation,
        fc.boolean(),
        (envelope, mutation, json) => {
          const mutated = mutate(envelope, mutation);
          decodeAsMessage(
            json
              ? utf8.encode(JSON.stringify(mutated))
              : new Packr({ useRecords: false }).pack(mutated),
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("events: arbitrary bytes (property, 500 cases)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), contentTypeArbitrary, (bytes, contentType) => {
        decodesOrFailsTyped(() => decodeEvent(bytes, { contentType }), "event");
      }),
      { numRuns: 500 },
    );
  });

  it("events: valid envelopes with edited bytes or a field replaced (property, 500 cases)", () => {
    fc.assert(
      fc.property(
        anyEventEnvelope,
        byteEdits,
        structuralMutation,
        fc.boolean(),
        (envelope, edits, mutation, editTheBytes) => {
          const bytes = editTheBytes
            ? editBytes(richPackr.pack(envelope), edits, undefined)
            : utf8.encode(JSON.stringify(mutate(envelope, mutation)));
          decodesOrFailsTyped(() => decodeEvent(bytes), "event");
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("public commands refuse every unknown field by name (issue #11)", () => {
  const extraKey = fc
    .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/)
    .filter((key) => !["type", "v", "__proto__", "constructor"].includes(key));

  it("a valid command plus an unknown top-level field, as a plain body or in the envelope's payload (property, 600 cases)", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...PUBLIC_COMMAND_TYPES)
          .chain((type) => fc.tuple(fc.constant(type), messagePayloadArbitraries[type])),
        extraKey,
        // A nested "__proto__" key makes the body undecodable (refused before any
        // schema), which another test covers; here the value must be plain.
        fc
          .jsonValue({ maxDepth: 1 })
          .filter((value) => !JSON.stringify(value).includes('"__proto__"')),
        fc.boolean(),
        ([type, payload], key, value, plain) => {
          const fields = payload as Record<string, unknown>;
          fc.pre(!Object.hasOwn(fields, key) && value !== null);
          const withExtra = { ...fields, [key]: value };
          const body = plain
            ? { type, ...withExtra }
            : { v: 1, id: "m1", type, payload: withExtra, meta: { timestampMs: 1 } };
          let error: unknown;
          try {
            decodeMessage(utf8.encode(JSON.stringify(body)), { defaults, subject: "s" });
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(DecodeError);
          const decodeError = error as DecodeError;
          expect(decodeError.reason).toBe("schema_invalid");
          const unknownKeys = decodeError.issues?.find(
            (issue) => issue.code === "unrecognized_keys",
          );
          expect(unknownKeys).toMatchObject({ path: ["payload"], keys: [key] });
          expect(decodeError.message).toContain(`unknown field ${JSON.stringify(key)}`);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("valid commands still decode to exactly their payload (property, 600 cases)", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...PUBLIC_COMMAND_TYPES)
          .chain((type) => fc.tuple(fc.constant(type), messagePayloadArbitraries[type])),
        ([type, payload]) => {
          const body = { type, ...(payload as Record<string, unknown>) };
          const message = decodeMessage(utf8.encode(JSON.stringify(body)), { defaults });
          expect(message.payload).toEqual(payload);
        },
      ),
      { numRuns: 600 },
    );
  });
});
