import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { OpenWaits } from "./open-waits.js";

const event = (type: string, payload: Record<string, unknown>, actor: string): EventEnvelope => ({
  v: 1,
  id: `${actor}:${type}`,
  type,
  payload,
  meta: { actor, seq: 1, timestampMs: 0 },
});

describe("OpenWaits", () => {
  it("keeps a parent's approval open when a subagent's run with the same run id ends, and closes it with its own run", () => {
    const waits = new OpenWaits("s1");
    const asked = event(
      "tool.approval_requested",
      { toolCallId: "c1", runId: "r1", tool: "send_email", arguments: {} },
      "tool/s1-r1-c1",
    );
    waits.observe(asked);
    waits.observe(event("run.completed", { runId: "r1", text: "" }, "run/sub-1"));
    expect(waits.opening()).toEqual([asked]);
    waits.observe(event("run.completed", { runId: "r1", text: "" }, "run/s1"));
    expect(waits.size).toBe(0);
  });

  it("closes a question with its answer, not with its call's tool.started", () => {
    const waits = new OpenWaits("s1");
    waits.observe(
      event("question.asked", { questionId: "q1", runId: "r1", text: "City?" }, "tool/t1"),
    );
    waits.observe(
      event("tool.started", { toolCallId: "q1", runId: "r1", tool: "ask_user" }, "tool/t1"),
    );
    expect(waits.size).toBe(1);
    waits.observe(
      event("question.answered", { questionId: "q1", runId: "r1", text: "Oslo" }, "tool/t1"),
    );
    expect(waits.size).toBe(0);
  });
});
