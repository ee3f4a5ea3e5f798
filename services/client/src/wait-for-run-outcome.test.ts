import { describe, expect, it } from "vitest";
import { ClientClosedError } from "./client-closed-error.js";
import { MessageRejectedError } from "./message-rejected-error.js";
import { RunTimeoutError } from "./run-timeout-error.js";
import type { SessionEvent } from "./session-event.js";
import { testEvent } from "./test-events.js";
import { waitForRunOutcome, type FollowEvents } from "./wait-for-run-outcome.js";

const usage = { inputTokens: 1, outputTokens: 2 };

/** A fake event feed: yields the stored events from a sequence, then waits for `signal` when `hang`. */
function feed(history: SessionEvent[], hang: boolean): FollowEvents & { starts: number[] } {
  const starts: number[] = [];
  const follow = async function* (fromSequence: number, signal: AbortSignal) {
    starts.push(fromSequence);
    for (const event of history) {
      if (event.sequence >= fromSequence) yield event;
    }
    if (hang && !signal.aborted) {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    }
  };
  return Object.assign(follow, { starts });
}

const original = [
  testEvent(1, "message.accepted", {
    messageId: "cm:c1",
    type: "user.message",
    clientMessageId: "c1",
    runId: "r1",
  }),
  testEvent(2, "run.completed", { runId: "r1", text: "first", usage }, { actor: "run/s1" }),
];

describe("waitForRunOutcome", () => {
  it("after a message.duplicate, reads again from sequence 1 and returns the original run's outcome; onEvent sees each event once", async () => {
    const history = [
      ...original,
      testEvent(3, "message.duplicate", { messageId: "cm:c1", clientMessageId: "c1" }),
    ];
    const follow = feed(history, true);
    const seen: number[] = [];
    const outcome = await waitForRunOutcome(
      follow,
      "s1",
      { clientMessageId: "c1" },
      { fromSequence: 3, onEvent: (event) => seen.push(event.sequence) },
    );
    expect(outcome).toMatchObject({ status: "completed", runId: "r1", text: "first", sequence: 2 });
    expect(follow.starts).toEqual([3, 1]);
    expect(seen).toEqual([3]);
  });

  it("rejects with MessageRejectedError when the session refused the message", async () => {
    const history = [
      testEvent(4, "message.rejected", { messageId: "cm:c9", code: "run_active", reason: "busy" }),
    ];
    const error = await waitForRunOutcome(feed(history, true), "s1", {
      clientMessageId: "c9",
    }).catch((caught: unknown) => caught);
    expect(MessageRejectedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ rejectionCode: "run_active", messageId: "cm:c9", sequence: 4 });
  });

  it("rejects with RunTimeoutError naming the known run after timeoutMs", async () => {
    const error = await waitForRunOutcome(
      feed([original[0]!], true),
      "s1",
      { clientMessageId: "c1" },
      { timeoutMs: 50 },
    ).catch((caught: unknown) => caught);
    expect(RunTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ runId: "r1", timeoutMs: 50, sessionId: "s1" });
  });

  it("rejects with the signal's reason on abort", async () => {
    const controller = new AbortController();
    const waiting = waitForRunOutcome(
      feed([], true),
      "s1",
      { runId: "r1" },
      {
        signal: controller.signal,
      },
    );
    const reason = new Error("user gave up");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(
      waitForRunOutcome(feed([], true), "s1", { runId: "r1" }, { signal: controller.signal }),
    ).rejects.toBe(reason);
  });

  it("rejects with ClientClosedError when the events end without an outcome", async () => {
    const error = await waitForRunOutcome(feed([], false), "s1", { runId: "r1" }).catch(
      (caught: unknown) => caught,
    );
    expect(ClientClosedError.isInstance(error)).toBe(true);
  });
});
