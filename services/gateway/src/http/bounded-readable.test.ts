import { describe, expect, it } from "vitest";
import { boundedReadable, SlowReaderError } from "./bounded-readable.js";

/** An endless source that counts how many items were taken from it. */
function counter() {
  let taken = 0;
  let returned = false;
  const source: AsyncIterator<number> = {
    next: () => Promise.resolve({ done: false, value: taken++ }),
    return: () => {
      returned = true;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return { source, taken: () => taken, returned: () => returned };
}

describe("boundedReadable: backpressure for slow HTTP readers (issue #16)", () => {
  it("passes every item of a finite source in order, then closes", async () => {
    const ended: string[] = [];
    const items = ["a", "b", "c"];
    const source: AsyncIterator<string> = {
      next: () =>
        Promise.resolve(
          items.length === 0
            ? { done: true, value: undefined }
            : { done: false, value: items.shift()! },
        ),
    };
    const stream = boundedReadable(source, { onEnd: () => ended.push("end") });
    const seen: string[] = [];
    for await (const item of stream) seen.push(item);
    expect(seen).toEqual(["a", "b", "c"]);
    expect(ended).toEqual(["end"]);
  });

  it("reads no further than its buffer while nobody reads, then cuts the stream", async () => {
    const { source, taken, returned } = counter();
    let stalled = 0;
    const stream = boundedReadable(source, {
      bufferChunks: 8,
      stallTimeoutMs: 100,
      onStall: () => stalled++,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toBe(0);
    // Nobody reads now: the queue fills to 8 and the source is left alone.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(taken()).toBeLessThanOrEqual(10);
    expect(stalled).toBe(1);
    expect(returned()).toBe(true);
    await expect(reader.read()).rejects.toBeInstanceOf(SlowReaderError);
  });

  it("stops reading the source when the reader cancels", async () => {
    const { source, returned } = counter();
    const stream = boundedReadable(source, { bufferChunks: 4 });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    expect(returned()).toBe(true);
  });
});
