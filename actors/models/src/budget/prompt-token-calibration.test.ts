import { describe, expect, it } from "vitest";
import { MAX_CALIBRATION_FACTOR, PromptTokenCalibration } from "./prompt-token-calibration.js";
import { RecordingSpendLedger } from "./recording-spend-ledger.js";
import { budgetOptionsSchema } from "./budget-options.js";
import { SpendGuard, type SpendCall } from "./spend-guard.js";

const agent = {
  name: "boss",
  limits: {
    modelCallTimeoutMs: 600_000,
    budget: budgetOptionsSchema.parse({ session: { tokens: 1_000_000 }, maxOutputTokens: 100 }),
  },
};
const call = (effectId: string, promptTokens: number): SpendCall => ({
  sessionId: "s1",
  runId: "r1",
  effectId,
  rootSessionId: "s1",
  agent,
  rootAgent: agent,
  model: { spec: undefined, modelId: "code-model" },
  promptTokens,
});

describe("PromptTokenCalibration (issue #31)", () => {
  it("raises a model's estimate by the running ratio of reported to estimated tokens, never lowers it", () => {
    const calibration = new PromptTokenCalibration();
    expect(calibration.adjust("m", 1_000)).toBe(1_000);
    calibration.observe("m", 1_000, 2_000);
    expect(calibration.factor("m")).toBe(2);
    // The newest call weighs 0.2: 2 + 0.2 × (1.5 − 2) = 1.9.
    calibration.observe("m", 1_000, 1_500);
    expect(calibration.factor("m")).toBeCloseTo(1.9, 10);
    expect(calibration.adjust("m", 1_000)).toBe(1_900);
    // Another model is not affected; an overcounted one stays at the estimate.
    expect(calibration.factor("other")).toBe(1);
    calibration.observe("over", 1_000, 400);
    expect(calibration.adjust("over", 1_000)).toBe(1_000);
  });

  it("ignores calls that reported nothing or were too small to tell, and caps the factor", () => {
    const calibration = new PromptTokenCalibration();
    calibration.observe("m", 1_000, 0);
    calibration.observe("m", 10, 500);
    expect(calibration.factor("m")).toBe(1);
    calibration.observe("m", 100, 10_000);
    expect(calibration.factor("m")).toBe(MAX_CALIBRATION_FACTOR);
  });

  it("a spend guard reserves the calibrated estimate once a completed call reported more, and only reported usage calibrates", async () => {
    const ledger = new RecordingSpendLedger();
    const guard = new SpendGuard(ledger);
    const first = await guard.reserve(call("r1.m1.a1", 1_000));
    // Usage estimated for a call that broke off (not reported) teaches nothing.
    await first!.settle({ inputTokens: 5_000, outputTokens: 10 }, undefined, false);
    const second = await guard.reserve(call("r1.m2.a1", 1_000));
    expect(ledger.reservations[1]!.tokens).toBe(1_000 + 100);
    // The provider reported 1.5 × the estimate for a completed call.
    await second!.settle({ inputTokens: 1_500, outputTokens: 10 }, undefined, true);
    const third = await guard.reserve(call("r1.m3.a1", 1_000));
    expect(ledger.reservations[2]!.tokens).toBe(1_500 + 100);
    expect(third!.promptTokens).toBe(1_500);
  });
});
