import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { EventRenderer } from "./event-renderer.js";

/** A `budget.warning` of run r1 as the stream delivers it. */
function warning(payload: Record<string, unknown>) {
  const event = {
    v: 1,
    id: "run/s-1:ev:4",
    type: "budget.warning",
    payload: { runId: "r1", warnAt: 0.8, ...payload },
    meta: { actor: "run/s-1", seq: 4, timestampMs: 1_764_482_645_000 },
  } as EventEnvelope;
  return { sequence: 4, subject: "troupe.session.s-1.events.budget.warning", event };
}

describe("EventRenderer: budget.warning (issue #19)", () => {
  it("says which budget reached its threshold, in tokens or dollars", () => {
    const renderer = new EventRenderer({ color: false, sessionId: "s-1" });
    expect(
      renderer.render(
        warning({ scope: "session", scopeId: "s-1", unit: "tokens", spent: 1600, limit: 2000 }),
      ),
    ).toBe("⚠ session budget s-1: 1600 tokens of 2000 tokens spent\n");
    expect(
      renderer.render(
        warning({
          scope: "agent_day",
          scopeId: "boss/2026-12-01",
          unit: "usd",
          spent: 4.2,
          limit: 5,
        }),
      ),
    ).toBe("⚠ agent_day budget boss/2026-12-01: $4.2 of $5 spent\n");
  });
});
