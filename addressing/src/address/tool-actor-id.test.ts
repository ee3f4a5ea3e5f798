import { describe, expect, it } from "vitest";
import { isValidActorId } from "./actor-id.js";
import { idempotencyKeyOf } from "./idempotency-key.js";
import { fnv1a128, toolActorId } from "./tool-actor-id.js";

const utf8 = new TextEncoder();

describe("toolActorId", () => {
  it("FNV-1a 128 matches the published offset basis and a published test value", () => {
    expect(fnv1a128(new Uint8Array())).toBe(0x6c62272e07bb014262b821756295c58dn);
    expect(fnv1a128(utf8.encode("a"))).toBe(0xd228cb696f1a8caf78912b704e4a8964n);
  });

  it("is a stable, token-safe id of 33 characters", () => {
    expect(toolActorId("demo-1", "r3", "call_8KQ2")).toBe("t36512fe87ad9ac54ed35893287693a76");
    expect(toolActorId("s1", "r1", "call_1")).toBe("ta3c999bc76147b145e1eb9ba327cb1c8");
    const id = toolActorId("s1", "r1", "call.with/odd chars*>é");
    expect(id).toMatch(/^t[0-9a-f]{32}$/);
    expect(isValidActorId(id)).toBe(true);
  });

  it("differs when any part differs", () => {
    const ids = new Set([
      toolActorId("s1", "r1", "call_1"),
      toolActorId("s1", "r1", "call_2"),
      toolActorId("s1", "r2", "call_1"),
      toolActorId("s2", "r1", "call_1"),
      toolActorId("s1", "r11", "call_1"),
    ]);
    expect(ids.size).toBe(5);
  });
});

describe("idempotencyKeyOf", () => {
  it("joins session, run and tool call ids with slashes", () => {
    expect(idempotencyKeyOf("demo-1", "r3", "call_8KQ2")).toBe("demo-1/r3/call_8KQ2");
  });
});
