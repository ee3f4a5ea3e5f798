import { describe, expect, it } from "vitest";
import { appendEntry, type MediaRef } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
import { runStep } from "../testing/run-kit.js";
import { answeredWithTools, readCall } from "../testing/run-tool-kit.js";

// Media by reference (issue #19): a tool's media references reach the run's
// `tool` transcript entry; the bytes never enter the machine.

const chart: MediaRef = {
  digest: `sha256:${"c".repeat(64)}`,
  mediaType: "image/png",
  size: 4096,
  name: "chart.png",
};

describe("run: a tool result with media", () => {
  it("the tool transcript entry keeps the media references of tool.finished", () => {
    const running = answeredWithTools([readCall("call_1")]).snapshot;
    const { actions } = runStep(
      running,
      inboxEvent(
        "tool.finished",
        {
          runId: "r1",
          toolCallId: "call_1",
          status: "succeeded",
          content: '{"chart":{"type":"image"}}',
          media: [chart],
        },
        "tool/call_1:out:1",
      ),
    );
    expect(actions).toContainEqual(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: {
          role: "tool",
          runId: "r1",
          toolCallId: "call_1",
          toolName: readCall("call_1").toolName,
          status: "succeeded",
          content: '{"chart":{"type":"image"}}',
          media: [chart],
        },
      }),
    );
  });
});
