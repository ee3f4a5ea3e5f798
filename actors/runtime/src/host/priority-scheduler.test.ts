import { describe, expect, it } from "vitest";
import type { PriorityClass } from "@troupe/protocol";
import { PriorityScheduler } from "./priority-scheduler.js";

/** A task that records when it started and ends when the test releases it. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
}

/**
 * Queues `labels` behind one blocking task on a scheduler of concurrency 1,
 * then releases tasks one by one; returns the order in which they started.
 */
async function startOrder(
  scheduler: PriorityScheduler,
  labels: readonly (readonly [string, PriorityClass])[],
): Promise<string[]> {
  const started: string[] = [];
  const blocker = gate();
  const first = scheduler.run(() => blocker.done, "default");
  const all = labels.map(([label, priority]) =>
    scheduler.run(() => {
      started.push(label);
      return Promise.resolve();
    }, priority),
  );
  blocker.release();
  await first;
  await Promise.all(all);
  return started;
}

describe("PriorityScheduler", () => {
  it("starts higher classes first and keeps arrival order within a class", async () => {
    const scheduler = new PriorityScheduler({ concurrency: 1 });
    const order = await startOrder(scheduler, [
      ["b1", "batch"],
      ["d1", "default"],
      ["b2", "batch"],
      ["i1", "interactive"],
      ["d2", "default"],
      ["i2", "interactive"],
    ]);
    expect(order).toEqual(["i1", "i2", "d1", "d2", "b1", "b2"]);
  });

  it("gives a passed-over lower class the next start after passOverLimit starts above it", async () => {
    const scheduler = new PriorityScheduler({ concurrency: 1, passOverLimit: 3 });
    const order = await startOrder(scheduler, [
      ["b1", "batch"],
      ["b2", "batch"],
      ...Array.from({ length: 7 }, (_, index) => [`i${index + 1}`, "interactive"] as const),
    ]);
    expect(order).toEqual(["i1", "i2", "i3", "b1", "i4", "i5", "i6", "b2", "i7"]);
  });

  it("serves both lower classes under a steady stream of interactive work (no starvation)", async () => {
    const scheduler = new PriorityScheduler({ concurrency: 1, passOverLimit: 2 });
    const order = await startOrder(scheduler, [
      ["b1", "batch"],
      ["d1", "default"],
      ["d2", "default"],
      ...Array.from({ length: 6 }, (_, index) => [`i${index + 1}`, "interactive"] as const),
    ]);
    // i1 and i2 pass over both lower classes twice: both are due, the lowest
    // (batch) starts first, then default; then default is passed over again.
    expect(order).toEqual(["i1", "i2", "b1", "d1", "i3", "i4", "d2", "i5", "i6"]);
  });

  it("never runs more than its concurrency at once, and runs everything", async () => {
    const scheduler = new PriorityScheduler({ concurrency: 3 });
    const classes: PriorityClass[] = ["batch", "default", "interactive"];
    let running = 0;
    let mostAtOnce = 0;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        scheduler.run(
          async () => {
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            await Promise.resolve();
            await Promise.resolve();
            running -= 1;
            return index;
          },
          classes[index % 3],
        ),
      ),
    );
    expect(mostAtOnce).toBe(3);
    expect(results).toEqual(Array.from({ length: 60 }, (_, index) => index));
    expect(scheduler.active).toBe(0);
    expect(scheduler.pending()).toBe(0);
  });

  it("passes a task's error to its caller and frees the slot", async () => {
    const scheduler = new PriorityScheduler({ concurrency: 1 });
    const failing = scheduler.run(() => Promise.reject(new Error("boom")), "batch");
    const throwing = scheduler.run((): Promise<void> => {
      throw new Error("sync boom");
    });
    const after = scheduler.run(() => Promise.resolve("next"), "batch");
    await expect(failing).rejects.toThrow("boom");
    await expect(throwing).rejects.toThrow("sync boom");
    await expect(after).resolves.toBe("next");
  });

  it("counts waiting tasks per class", () => {
    const scheduler = new PriorityScheduler({ concurrency: 1 });
    const blocker = gate();
    void scheduler.run(() => blocker.done);
    void scheduler.run(() => Promise.resolve(), "batch");
    void scheduler.run(() => Promise.resolve(), "batch");
    void scheduler.run(() => Promise.resolve(), "interactive");
    expect(scheduler.active).toBe(1);
    expect(scheduler.pending("batch")).toBe(2);
    expect(scheduler.pending("interactive")).toBe(1);
    expect(scheduler.pending()).toBe(3);
    blocker.release();
  });

  it("refuses a concurrency or pass-over limit below 1", () => {
    expect(() => new PriorityScheduler({ concurrency: 0 })).toThrow(RangeError);
    expect(() => new PriorityScheduler({ concurrency: 2, passOverLimit: 0 })).toThrow(RangeError);
  });
});
