import type { MediaRef, SessionPolicy } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { appendEntry, emitEvent } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
import {
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  userMessage,
  type SessionSnapshot,
} from "../testing/session-kit.js";

// Media by reference (issue #19): the session carries a message's attachment
// references into its transcript entry; the bytes never enter the machine.

const photo: MediaRef = {
  digest: `sha256:${"b".repeat(64)}`,
  mediaType: "image/png",
  size: 2048,
  name: "photo.png",
};

function runningWith(policy: SessionPolicy): SessionSnapshot {
  return sessionSteps(
    newSession(),
    inboxEvent("session.configure", { policy }, "m0"),
    userMessage("m1", { text: "first" }),
  ).snapshot;
}

describe("session: user messages with attachments", () => {
  it("the run's user transcript entry holds the attachment references", () => {
    const { actions } = sessionStep(
      newSession(),
      userMessage("m1", { text: "What is in this picture?", attachments: [photo] }),
    );
    expect(actions).toContainEqual(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 0,
        entry: {
          role: "user",
          text: "What is in this picture?",
          messageId: "m1",
          attachments: [photo],
        },
      }),
    );
  });

  it("a queued message keeps its attachments until its run starts", () => {
    const queued = sessionStep(
      runningWith("enqueue"),
      userMessage("m2", { text: "and this?", attachments: [photo] }),
    );
    expect(queued.snapshot.context.queue[0]?.attachments).toEqual([photo]);
    const next = sessionStep(
      queued.snapshot,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(next.actions).toContainEqual(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: { role: "user", text: "and this?", messageId: "m2", attachments: [photo] },
      }),
    );
  });

  it("under the steer policy a message with attachments is queued, not steered (a steer carries text only)", () => {
    const { actions, snapshot } = sessionStep(
      runningWith("steer"),
      userMessage("m2", { text: "look", attachments: [photo] }),
    );
    expect(actions).toEqual([
      emitEvent("message.accepted", { messageId: "m2", type: "user.message", queued: true }),
    ]);
    expect(snapshot.context.queue.map((entry) => entry.messageId)).toEqual(["m2"]);
  });
});
