import { describe, expect, it } from "vitest";
import { decideToolCall, matchesToolPattern } from "./tool-policy.js";

describe("matchesToolPattern", () => {
  it("matches whole names, with * for any characters", () => {
    expect(matchesToolPattern("charge", "charge")).toBe(true);
    expect(matchesToolPattern("charge", "charge_card")).toBe(false);
    expect(matchesToolPattern("charge*", "charge_card")).toBe(true);
    expect(matchesToolPattern("*_card", "charge_card")).toBe(true);
    expect(matchesToolPattern("*", "anything")).toBe(true);
    expect(matchesToolPattern("a.b", "axb")).toBe(false);
  });
});

describe("decideToolCall", () => {
  const decide = (
    effectClass: "read" | "idempotent_write" | "non_idempotent_write" | "unclassified",
    policy?: Parameters<typeof decideToolCall>[0]["policy"],
    overrides?: Parameters<typeof decideToolCall>[0]["overrides"],
  ) => decideToolCall({ policy, overrides, toolName: "charge", effectClass });

  it("unmatched tools: reads and idempotent writes are allowed, the others ask", () => {
    expect(decide("read")).toBe("allow");
    expect(decide("idempotent_write")).toBe("allow");
    expect(decide("non_idempotent_write")).toBe("ask");
    expect(decide("unclassified")).toBe("ask");
  });

  it("the agent's lists: deny > ask > allow", () => {
    expect(decide("non_idempotent_write", { allow: ["*"] })).toBe("allow");
    expect(decide("read", { ask: ["char*"] })).toBe("ask");
    expect(decide("read", { allow: ["charge"], ask: ["*"] })).toBe("ask");
    expect(decide("read", { allow: ["*"], ask: ["*"], deny: ["charge"] })).toBe("deny");
    expect(decide("read", { deny: ["other"] })).toBe("allow");
  });

  it("session overrides only make the decision safer", () => {
    expect(decide("read", { allow: ["*"] }, { ask: ["charge"] })).toBe("ask");
    expect(decide("read", undefined, { deny: ["*"] })).toBe("deny");
    expect(decide("non_idempotent_write", { deny: ["charge"] }, { ask: ["charge"] })).toBe("deny");
    expect(decide("non_idempotent_write", undefined, { ask: ["other"] })).toBe("ask");
  });
});
