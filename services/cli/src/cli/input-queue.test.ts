import { describe, expect, it } from "vitest";
import { InputQueue } from "./input-queue.js";

describe("InputQueue (troupe chat type-ahead)", () => {
  it("queues lines typed while nobody waits and serves them oldest first", async () => {
    const input = new InputQueue();
    input.push("first");
    input.push("second");
    expect(input.size).toBe(2);
    expect(await input.next()).toBe("first");
    expect(await input.next()).toBe("second");
    const waiting = input.next();
    input.push("third");
    expect(await waiting).toBe("third");
    expect(input.size).toBe(0);
  });

  it("an approval asked in a terminal takes the next line typed, and queued lines stay messages", async () => {
    const input = new InputQueue();
    input.push("typed during the answer");
    const approval = input.nextTyped();
    input.push("y");
    expect(await approval).toBe("y");
    expect(await input.next()).toBe("typed during the answer");
  });

  it("after the end, queued lines are still served, then undefined", async () => {
    const input = new InputQueue();
    input.push("a");
    input.end();
    input.push("after the end");
    expect(input.ended).toBe(true);
    expect(await input.nextTyped()).toBeUndefined();
    expect(await input.next()).toBe("a");
    expect(await input.next()).toBeUndefined();
  });

  it("the end releases a waiting taker with undefined", async () => {
    const input = new InputQueue();
    input.push("queued");
    const approval = input.nextTyped();
    input.end();
    expect(await approval).toBeUndefined();
    expect(input.size).toBe(1);
  });

  it("an aborted taker rejects with the reason and leaves the next line queued", async () => {
    const input = new InputQueue();
    const abort = new AbortController();
    const question = input.nextTyped(abort.signal);
    abort.abort(new Error("the run ended"));
    await expect(question).rejects.toThrow("the run ended");
    input.push("hello");
    expect(input.size).toBe(1);
    expect(await input.next()).toBe("hello");
  });

  it("refuses a second taker and drops queued lines on discard", async () => {
    const input = new InputQueue();
    const first = input.next();
    await expect(input.nextTyped()).rejects.toThrow(/already awaited/);
    input.push("x");
    expect(await first).toBe("x");
    input.push("y");
    input.discard();
    expect(input.size).toBe(0);
  });
});
