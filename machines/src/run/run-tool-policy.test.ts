import { describe, expect, it } from "vitest";
import { runStart, runStep, newRunActor } from "../testing/run-kit.js";
import {
  answeredWithTools,
  finishTools,
  nextModelCall,
  toolStartOf,
  writeCall,
} from "../testing/run-tool-kit.js";
import { modelToolCall } from "../testing/tool-kit.js";

describe("run: tool policy", () => {
  it("passes the session's tool policy overrides from run.start to every model call", () => {
    const toolPolicy = { ask: ["lookup"], deny: ["charge*"] };
    const { actions } = runStep(newRunActor(), runStart({ toolPolicy }));
    expect(actions).toEqual([
      nextModelCall("r1.m1.a1", { transcriptLength: 1, modelCallIndex: 1, toolPolicy }),
    ]);
    const calls = [writeCall("call_1")];
    const answered = answeredWithTools(calls, runStart({ toolPolicy }));
    const after = finishTools(answered.snapshot, ["call_1"]);
    expect(after.actions.at(-1)).toEqual(
      nextModelCall("r1.m2.a1", { transcriptLength: 3, modelCallIndex: 2, toolPolicy }),
    );
  });

  it("hands each call's decision and approval timeout to its tool call actor", () => {
    const asked = writeCall("call_1", "non_idempotent_write");
    const calls = [
      { ...asked, decision: "ask" as const, approvalTimeoutMs: 60_000 },
      modelToolCall("call_2", { decision: "deny" }),
    ];
    const { actions } = answeredWithTools(calls);
    expect(actions).toContainEqual(
      toolStartOf(asked, { decision: "ask", approvalTimeoutMs: 60_000 }),
    );
    expect(actions).toContainEqual(toolStartOf(modelToolCall("call_2"), { decision: "deny" }));
  });

  it("a denied write is a failed write: the later writes of the response are skipped", () => {
    const calls = [
      { ...writeCall("call_1", "non_idempotent_write"), decision: "deny" as const },
      writeCall("call_2"),
    ];
    const answered = answeredWithTools(calls);
    const after = finishTools(answered.snapshot, ["call_1", "failed"]);
    expect(after.snapshot.value).toBe("calling");
    expect(after.actions.some((a) => a.type === "troupe.send")).toBe(false);
  });
});
