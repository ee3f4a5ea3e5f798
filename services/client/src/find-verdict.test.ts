import { describe, expect, it } from "vitest";
import { findVerdict } from "./find-verdict.js";
import type { SessionEvent } from "./session-event.js";
import { testEvent } from "./test-events.js";

function stream(...events: SessionEvent[]): AsyncIterable<SessionEvent> {
  return {
    async *[Symbol.asyncIterator]() {
      for (const event of events) yield await Promise.resolve(event);
    },
  };
}

const receipt = (messageId: string, streamSequence = 40) => ({
  sessionId: "s1",
  messageId,
  streamSequence,
});

describe("findVerdict", () => {
  it("of an approve and a deny racing on one call, each finds its own verdict, not the first settlement", async () => {
    const tool = { actor: "tool/t1" };
    const events = () =>
      stream(
        testEvent(1, "message.accepted", { messageId: "approve-1", type: "tool.approve" }),
        testEvent(2, "message.accepted", { messageId: "deny-1", type: "tool.deny" }),
        testEvent(
          3,
          "command.settled",
          {
            commandId: "approve-1",
            command: "tool.approve",
            verdict: "applied",
            toolCallId: "call_1",
            decision: "approved",
          },
          tool,
        ),
        testEvent(4, "tool.approval_settled", { toolCallId: "call_1", decision: "approved" }, tool),
        testEvent(
          5,
          "command.settled",
          {
            commandId: "deny-1",
            command: "tool.deny",
            verdict: "already_settled",
            reason: "tool call call_1 was approved already",
            toolCallId: "call_1",
            decision: "approved",
          },
          tool,
        ),
      );
    const denied = await findVerdict(events(), receipt("deny-1"));
    expect(denied).toMatchObject({
      verdict: "already_settled",
      commandId: "deny-1",
      reason: "tool call call_1 was approved already",
    });
    expect(denied?.event.meta.actor).toBe("tool/t1");
    expect(await findVerdict(events(), receipt("approve-1"))).toMatchObject({
      verdict: "applied",
      commandId: "approve-1",
    });
  });

  it("a message.rejected naming the command (by id, or by inbox sequence when undecodable) is its verdict", async () => {
    const byId = await findVerdict(
      stream(
        testEvent(1, "message.rejected", {
          reason: "session s1 is closed",
          code: "session_closed",
          messageId: "c-9",
          type: "run.cancel",
        }),
      ),
      receipt("c-9"),
    );
    expect(byId).toMatchObject({ verdict: "rejected", code: "session_closed", commandId: "c-9" });
    const bySequence = await findVerdict(
      stream(
        testEvent(1, "message.rejected", {
          reason: "not msgpack",
          code: "decode_failed",
          messageId: "session/s1:in:40",
        }),
      ),
      receipt("c-10", 40),
    );
    expect(bySequence).toMatchObject({ verdict: "rejected", code: "decode_failed" });
  });

  it("returns undefined when the events end without its verdict", async () => {
    const other = testEvent(1, "command.settled", {
      commandId: "someone-else",
      command: "run.cancel",
      verdict: "nothing_to_act_on",
    });
    expect(await findVerdict(stream(other), receipt("mine"))).toBeUndefined();
  });
});
