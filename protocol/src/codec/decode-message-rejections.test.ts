import { Packr, pack } from "msgpackr";
import { describe, expect, it } from "vitest";
import {
  type DecodeError,
  type DecodeFailureReason,
  PayloadTooLargeError,
} from "@troupe/addressing";
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
    // A plain body's problems are worded with its own top-level field names.
    expect(error.message).toMatch(/^The user\.message body is invalid: text: /);
    const inEnvelope = decodeFailure(
      () =>
        decodeMessage(
          pack({ ...fullEnvelope, type: "user.message", payload: { text: "" } }),
          options,
        ),
      "schema_invalid",
    );
    expect(inEnvelope.message).toMatch(/^The user\.message payload is invalid: payload\.text: /);
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

describe("public commands are strict (issue #11)", () => {
  it('refuses the plain body {"type":"user.message","text":"hi","id":"m-1"} naming "id", instead of dropping it', () => {
    const error = decodeFailure(
      () => decodeMessage(json('{"type":"user.message","text":"hi","id":"m-1"}'), options),
      "schema_invalid",
    );
    expect(error.issues?.[0]).toMatchObject({
      code: "unrecognized_keys",
      keys: ["id"],
      path: ["payload"],
    });
    expect(error.message).toBe(
      'The user.message body is invalid: unknown field "id". A plain body holds "type" and the ' +
        "fields of user.message (text, clientMessageId, agent, metadata, attachments, priority); for an idempotency key " +
        'use "clientMessageId", for a message id the envelope form {"v":1,"id":…,"type":…,"payload":{…}}.',
    );
  });

  it("a payload that fails its schema carries the envelope's type and id, so the rejection names the sender's message", () => {
    const error = decodeFailure(
      () => decodeMessage(pack({ ...fullEnvelope, payload: { runId: "r 1" } }), options),
      "schema_invalid",
    );
    expect(error.messageType).toBe("run.cancel");
    expect(error.messageId).toBe("m-42");
    expect(error.details).toMatchObject({ messageType: "run.cancel", messageId: "m-42" });
  });

  it("refuses unknown fields of a full envelope, its meta and its payload by name", () => {
    const cases: [Record<string, unknown>, (string | number)[], string][] = [
      [{ ...fullEnvelope, clientMessageId: "c1" }, [], "clientMessageId"],
      [{ ...fullEnvelope, meta: { timestampMs: 1, seq: 4 } }, ["meta"], "seq"],
      [{ ...fullEnvelope, payload: { runId: "r1", force: true } }, ["payload"], "force"],
    ];
    for (const [envelope, path, key] of cases) {
      const error = decodeFailure(() => decodeMessage(pack(envelope), options), "schema_invalid");
      expect(error.issues?.[0]).toMatchObject({ code: "unrecognized_keys", keys: [key], path });
      expect(error.message).toContain(`unknown field "${key}"`);
    }
  });

  it.each([
    ["run.steer with an empty text", { type: "run.steer", text: "" }, ["payload", "text"]],
    ["run.steer with a blank text", { type: "run.steer", text: " \n\t" }, ["payload", "text"]],
    ["run.steer without text", { type: "run.steer" }, ["payload", "text"]],
    [
      "run.steer naming a run id with a dot",
      { type: "run.steer", text: "x", runId: "r.1" },
      ["payload", "runId"],
    ],
    [
      "question.answer with a blank text",
      { type: "question.answer", questionId: "q1", text: "  " },
      ["payload", "text"],
    ],
    [
      "question.answer with a question id holding a space",
      { type: "question.answer", questionId: "q 1", text: "yes" },
      ["payload", "questionId"],
    ],
    [
      "tool.approve with an empty call id",
      { type: "tool.approve", toolCallId: "" },
      ["payload", "toolCallId"],
    ],
    [
      "tool.approve with a call id holding a newline",
      { type: "tool.approve", toolCallId: "call_1\n" },
      ["payload", "toolCallId"],
    ],
    [
      "tool.deny with a 257-character call id",
      { type: "tool.deny", toolCallId: "c".repeat(257) },
      ["payload", "toolCallId"],
    ],
    [
      "tool.approve naming a session id with a dot",
      { type: "tool.approve", toolCallId: "c1", sessionId: "a.b" },
      ["payload", "sessionId"],
    ],
    ["user.message with a blank text", { type: "user.message", text: "   " }, ["payload", "text"]],
    [
      "user.message over 262,144 characters",
      { type: "user.message", text: "x".repeat(262_145) },
      ["payload", "text"],
    ],
    [
      "user.message naming an agent with a space",
      { type: "user.message", text: "hi", agent: "my agent" },
      ["payload", "agent"],
    ],
    [
      "run.cancel with a reason over 262,144 characters",
      { type: "run.cancel", reason: "x".repeat(262_145) },
      ["payload", "reason"],
    ],
    [
      "session.configure with a model holding a space",
      { type: "session.configure", model: "openai: gpt" },
      ["payload", "model"],
    ],
    [
      "session.configure with an unknown toolPolicy field",
      { type: "session.configure", toolPolicy: { block: ["x"] } },
      ["payload", "toolPolicy"],
    ],
    ["session.close with a field", { type: "session.close", now: true }, ["payload"]],
  ])("refuses %s, naming the field", (_name, body, path) => {
    const error = decodeFailure(
      () => decodeMessage(json(JSON.stringify(body)), { ...options, maxPayloadBytes: 2_000_000 }),
      "schema_invalid",
    );
    expect(error.issues?.[0]?.path).toEqual(path);
    const field = path.slice(1).join(".");
    expect(error.message).toMatch(/^The [a-z.]+ body is invalid: /);
    expect(error.message).toContain(field);
  });

  it("accepts the texts and ids the rules allow, keeping a text as sent", () => {
    const steer = decodeMessage(
      json('{"type":"run.steer","text":"  be brief \\n","runId":"r2"}'),
      options,
    );
    expect(steer.payload).toEqual({ text: "  be brief \n", runId: "r2" });
    for (const toolCallId of [
      "call_abc123",
      "toolu_01A09q90qw90lq917835lq9",
      "functions.search:0",
    ]) {
      expect(
        decodeMessage(json(JSON.stringify({ type: "tool.approve", toolCallId })), options).payload,
      ).toEqual({
        toolCallId,
      });
    }
  });

  it("internal messages (host to host) still drop unknown fields, so a newer host's extra field does not dead-letter a run", () => {
    const finished = decodeMessage(
      json(
        JSON.stringify({
          type: "run.finished",
          runId: "r1",
          outcome: "completed",
          transcriptLength: 2,
          steersApplied: 0,
          addedLater: 1,
        }),
      ),
      options,
    );
    expect(finished.payload).toEqual({
      runId: "r1",
      outcome: "completed",
      transcriptLength: 2,
      steersApplied: 0,
    });
  });
});

describe("a body that is neither JSON nor msgpack (issue #11)", () => {
  it("says what was expected and shows the first bytes in hex and as text", () => {
    const error = decodeFailure(() => decodeMessage(json("hello world"), options), "undecodable");
    expect(error.message).toContain(
      "Expected a msgpack envelope (Content-Type: application/msgpack, or no header) or a JSON " +
        "object (Content-Type: application/json, or no header and a first non-blank byte '{')",
    );
    expect(error.message).toContain(
      "got first 11 of 11 bytes: 68 65 6c 6c 6f 20 77 6f 72 6c 64 |hello world|.",
    );
    expect(error.message).toContain("read as msgpack since it has no Content-Type header");
  });

  it("shows at most 32 bytes, non-printable ones as '.'", () => {
    const bytes = new Uint8Array([0x00, 0xff, ...json("x".repeat(100))]);
    const error = decodeFailure(
      () => decodeMessage(bytes, { ...options, contentType: "application/json" }),
      "undecodable",
    );
    expect(error.message).toContain(
      `got first 32 of 102 bytes: 00 ff ${"78 ".repeat(29)}78 |..${"x".repeat(30)}|.`,
    );
    expect(error.message).toMatch(/^The body is not valid JSON \(/);
  });

  it("says the same for a JSON value that is not an object", () => {
    const error = decodeFailure(
      () => decodeMessage(json("42"), { ...options, contentType: "application/json" }),
      "undecodable",
    );
    expect(error.message).toContain("not a number");
    expect(error.message).toContain("Expected a msgpack envelope");
    expect(error.message).toContain("got first 2 of 2 bytes: 34 32 |42|.");
  });
});
