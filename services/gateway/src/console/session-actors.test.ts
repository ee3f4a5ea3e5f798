import { toolAddressOf } from "@troupe/machines";
import { describe, expect, it } from "vitest";
import { collectSessionActors, type ActorSighting } from "./session-actors.js";

const event = (
  sequence: number,
  actor: string,
  type: string,
  payload: unknown = {},
): ActorSighting => ({
  sequence,
  event: { type, payload, meta: { actor } },
});

describe("collectSessionActors", () => {
  it("lists the session, its run, tool calls and a subagent with its own run and tool call, in order of first sight", () => {
    const actors = collectSessionActors("s1", [
      event(1, "session/s1", "message.accepted"),
      event(2, "session/s1", "run.started", { runId: "r1" }),
      event(3, "tool/t1", "tool.approval_requested", {
        toolCallId: "call-2-1",
        runId: "r1",
        tool: "send_email",
        arguments: {},
      }),
      event(4, "run/s1", "subagent.started", {
        subagent: "session/sub-abc",
        runId: "r1",
        task: "t",
      }),
      event(5, "run/sub-abc", "tool.started", {
        toolCallId: "call-1-1",
        runId: "r9",
        tool: "clock",
      }),
      event(6, "session/s1", "run.completed", { runId: "r1" }),
    ]);
    expect(actors.map((actor) => [actor.address, actor.role, actor.label])).toEqual([
      ["session/s1", "session", undefined],
      ["run/s1", "run", undefined],
      ["tool/t1", "tool", undefined],
      [toolAddressOf("s1", "r1", "call-2-1"), "tool", "send_email · call-2-1"],
      ["session/sub-abc", "subagent", undefined],
      ["run/sub-abc", "run", undefined],
      [toolAddressOf("sub-abc", "r9", "call-1-1"), "tool", "clock · call-1-1"],
    ]);
    const session = actors[0]!;
    expect([session.firstSequence, session.lastSequence, session.lastEventType]).toEqual([
      1,
      6,
      "run.completed",
    ]);
  });

  it("takes a subagent call's session from the payload and skips what is not an address", () => {
    const actors = collectSessionActors("s1", [
      event(1, "not an address", "x"),
      event(2, "run/s1", "tool.approval_requested", {
        toolCallId: "c1",
        runId: "r2",
        tool: "send_email",
        sessionId: "sub-x",
      }),
    ]);
    expect(actors.map((actor) => actor.address)).toEqual([
      "run/s1",
      toolAddressOf("sub-x", "r2", "c1"),
    ]);
  });
});
