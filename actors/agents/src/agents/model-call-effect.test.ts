import type {
  ModelCallInput as RunMachineModelCallInput,
  ModelCallOutput as RunMachineModelCallOutput,
} from "@troupe/machines";
import { MODEL_CALL_EFFECT } from "@troupe/machines";
import type { TranscriptEntry as ProtocolTranscriptEntry } from "@troupe/protocol";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  type ModelCallResult,
  type modelCallInputSchema,
  parseModelCallInput,
} from "./model-call-effect.js";
import type { TranscriptEntry } from "./transcript-entry.js";

describe("the model.call effect contract", () => {
  it("reads null agent and model as absent and defaults withoutTools to false", () => {
    const input = parseModelCallInput({
      sessionId: "s1",
      runId: "r1",
      agent: null,
      model: null,
      transcriptLength: 0,
      modelCallIndex: 1,
      attempt: 1,
    });
    expect(input).toEqual({
      sessionId: "s1",
      runId: "r1",
      agent: undefined,
      model: undefined,
      transcriptLength: 0,
      modelCallIndex: 1,
      attempt: 1,
      withoutTools: false,
    });
  });

  it("refuses a malformed input with a non-retryable internal error naming the field", () => {
    expect(() => parseModelCallInput({ sessionId: "s1", runId: "r1", modelCallIndex: 0 })).toThrow(
      /invalid model.call input: .*modelCallIndex/s,
    );
  });

  it("matches the run machine's effect name, input and output, and the protocol's transcript entries", () => {
    expect(MODEL_CALL_EFFECT).toBe("model.call");
    expectTypeOf<RunMachineModelCallInput>().toExtend<z.input<typeof modelCallInputSchema>>();
    expectTypeOf<ModelCallResult>().toExtend<RunMachineModelCallOutput>();
    expectTypeOf<ProtocolTranscriptEntry>().toExtend<TranscriptEntry>();
  });
});
