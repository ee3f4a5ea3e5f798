import { describe, expect, it } from "vitest";
import { mcpToolEffectClass } from "./mcp-effect-class.js";

describe("mcpToolEffectClass (issue #15)", () => {
  it.each([
    [{ readOnlyHint: true }, "read"],
    [{ readOnlyHint: true, idempotentHint: true, destructiveHint: true }, "read"],
    [{ idempotentHint: true }, "idempotent_write"],
    [{ idempotentHint: true, destructiveHint: true }, "idempotent_write"],
    [{ readOnlyHint: false, idempotentHint: true }, "idempotent_write"],
    [{ destructiveHint: false }, "non_idempotent_write"],
    [{ destructiveHint: false, idempotentHint: false }, "non_idempotent_write"],
    [{ destructiveHint: true }, "unclassified"],
    [{}, "unclassified"],
    [undefined, "unclassified"],
  ] as const)("maps %j to %s", (annotations, expected) => {
    expect(mcpToolEffectClass(annotations)).toBe(expected);
  });
});
