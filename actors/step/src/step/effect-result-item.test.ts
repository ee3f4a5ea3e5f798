import { decodeMessage, hostMessageSchemas, type WireError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import type { OutboxItem, PendingEffect } from "./actor-record.js";
import { effectResultItem, effectWireError } from "./effect-result-item.js";

const address = { kind: "counter", id: "c1" };
const effect: PendingEffect = { effectId: "2.0", effect: "fetch_page", input: {} };
const limit = 64 * 1024;

function decoded(item: OutboxItem) {
  return decodeMessage(item.body, {
    contentType: item.contentType,
    schemas: hostMessageSchemas,
    maxPayloadBytes: limit,
    defaults: { id: "unused", timestampMs: 0 },
  });
}

describe("effectResultItem", () => {
  it("encodes a result that fits as is, with the deterministic message id", () => {
    const { item, replacedBy } = effectResultItem({
      address,
      effect,
      result: { type: "effect.completed", payload: { effectId: "2.0", output: { n: 1 } } },
      timestampMs: 1_000,
      maxPayloadBytes: limit,
    });
    expect(replacedBy).toBeUndefined();
    expect(item.subject).toBe("troupe.counter.c1.in");
    expect(item.messageId).toBe("counter/c1:fx:2.0");
    expect(decoded(item)).toMatchObject({
      type: "effect.completed",
      payload: { effectId: "2.0", output: { n: 1 } },
    });
  });

  it("turns a result over the limit into a small effect.failed with code payload_too_large (issue #11)", () => {
    const { item, replacedBy } = effectResultItem({
      address,
      effect,
      result: {
        type: "effect.completed",
        payload: { effectId: "2.0", output: "x".repeat(limit) },
      },
      timestampMs: 1_000,
      maxPayloadBytes: limit,
    });
    expect(replacedBy?.code).toBe("payload_too_large");
    expect(item.messageId).toBe("counter/c1:fx:2.0");
    expect(item.body.byteLength).toBeLessThan(2_000);
    const message = decoded(item);
    expect(message.type).toBe("effect.failed");
    const error = (message.payload as { error: WireError }).error;
    expect(error.code).toBe("payload_too_large");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^The "fetch_page" effect result is \d+ bytes encoded; the limit is 65536 bytes\./,
    );
    expect(error.details).toMatchObject({ maxBytes: limit, effect: "fetch_page" });
    expect((error.details as { sizeBytes: number }).sizeBytes).toBeGreaterThan(limit);
  });

  it("turns a failure whose error is too large into a small effect.failed as well", () => {
    const { item, replacedBy } = effectResultItem({
      address,
      effect,
      result: {
        type: "effect.failed",
        payload: {
          effectId: "2.0",
          error: { code: "internal", message: "y".repeat(limit), retryable: true },
        },
      },
      timestampMs: 1_000,
      maxPayloadBytes: limit,
    });
    expect(replacedBy?.code).toBe("payload_too_large");
    expect((decoded(item).payload as { error: WireError }).error.code).toBe("payload_too_large");
  });

  it("turns a result that cannot be encoded (a BigInt) into effect.failed with code internal", () => {
    const { item, replacedBy } = effectResultItem({
      address,
      effect,
      result: { type: "effect.completed", payload: { effectId: "2.0", output: { n: 10n } } },
      timestampMs: 1_000,
      maxPayloadBytes: limit,
    });
    expect(replacedBy?.code).toBe("internal");
    const error = (decoded(item).payload as { error: WireError }).error;
    expect(error).toMatchObject({ code: "internal", retryable: false });
    expect(error.message).toMatch(/^The "fetch_page" effect result cannot be encoded: /);
  });
});

describe("effectWireError", () => {
  it("describes a thrown value that cannot even be inspected instead of throwing", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("no peeking");
        },
        getPrototypeOf() {
          throw new Error("no peeking");
        },
      },
    );
    expect(effectWireError(hostile)).toEqual({
      code: "internal",
      message: "The effect handler threw a value that cannot be inspected.",
      retryable: false,
    });
    expect(effectWireError(new Error("plain"))).toEqual({
      code: "internal",
      message: "plain",
      retryable: false,
    });
  });
});
