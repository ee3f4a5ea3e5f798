import { describe, expect, it } from "vitest";
import { ArrivalWaiters } from "./arrival-waiters.js";

describe("ArrivalWaiters", () => {
  it("resolves each waiter with the first matching item delivered after it, and drops the rest", async () => {
    const waiters = new ArrivalWaiters<{ type: string; n: number }>();
    waiters.deliver({ type: "run.completed", n: 0 }, 5);
    const accepted = waiters.expect((item) => item.type === "message.accepted", 1_000, "accepted");
    const completed = waiters.expect((item) => item.type === "run.completed", 1_000, "completed");
    waiters.deliver({ type: "message.accepted", n: 1 }, 10);
    waiters.deliver({ type: "run.started", n: 2 }, 11);
    waiters.deliver({ type: "run.completed", n: 3 }, 12);
    waiters.deliver({ type: "run.completed", n: 4 }, 13);
    await expect(accepted).resolves.toEqual({
      item: { type: "message.accepted", n: 1 },
      arrivedAtMs: 10,
    });
    await expect(completed).resolves.toEqual({
      item: { type: "run.completed", n: 3 },
      arrivedAtMs: 12,
    });
    expect(waiters.waiting).toBe(0);
  });

  it("times out with the label, and fails pending and later waiters once the stream failed", async () => {
    const waiters = new ArrivalWaiters<string>();
    await expect(waiters.expect(() => true, 5, "first byte")).rejects.toThrow(
      "first byte: nothing within 5 ms",
    );
    const pending = waiters.expect(() => true, 1_000, "x");
    waiters.fail(new Error("stream cut"));
    await expect(pending).rejects.toThrow("stream cut");
    await expect(waiters.expect(() => true, 1_000, "y")).rejects.toThrow("stream cut");
    expect(waiters.waiting).toBe(0);
  });
});
