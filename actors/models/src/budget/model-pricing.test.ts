import { describe, expect, it } from "vitest";
import { costMicroUsd, DEFAULT_MODEL_PRICING, priceOf } from "./model-pricing.js";
import { calendarDay } from "./spend-guard.js";

describe("model pricing (issue #19)", () => {
  it("prices tokens in whole micro-dollars, rounding up only what is really a fraction", () => {
    const mini = { inputPerMTok: 0.15, outputPerMTok: 0.6 };
    expect(costMicroUsd(mini, 1000, 0)).toBe(150);
    expect(costMicroUsd(mini, 1000, 1000)).toBe(750);
    expect(costMicroUsd(mini, 1, 0)).toBe(1); // 0.15 µ$ rounds up
    expect(costMicroUsd({ inputPerMTok: 3, outputPerMTok: 15 }, 2_000_000, 100_000)).toBe(
      7_500_000,
    );
  });

  it("looks a price up by spec override, then model id override, then the default table", () => {
    const overrides = {
      "openai:gpt-4o-mini": { inputPerMTok: 1, outputPerMTok: 2 },
      "gpt-4o": { inputPerMTok: 5, outputPerMTok: 6 },
    };
    expect(priceOf({ spec: "openai:gpt-4o-mini", modelId: "gpt-4o-mini" }, overrides)).toEqual({
      inputPerMTok: 1,
      outputPerMTok: 2,
    });
    expect(priceOf({ spec: undefined, modelId: "gpt-4o-mini" }, overrides)).toEqual(
      DEFAULT_MODEL_PRICING["gpt-4o-mini"],
    );
    expect(priceOf({ spec: "openai:gpt-4o", modelId: "gpt-4o" }, overrides)?.inputPerMTok).toBe(5);
    expect(priceOf({ spec: "scripted", modelId: "scripted-demo" }, overrides)).toBeUndefined();
  });

  it("names the calendar day in the budget's time zone", () => {
    const lateEvening = Date.UTC(2026, 11, 1, 23, 30);
    expect(calendarDay(lateEvening, "UTC")).toBe("2026-12-01");
    expect(calendarDay(lateEvening, "Europe/Paris")).toBe("2026-12-02");
    expect(calendarDay(lateEvening, "America/New_York")).toBe("2026-12-01");
  });
});
