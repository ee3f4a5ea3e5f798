import { describe, expect, it } from "vitest";
import { setImmediate as nextTurn } from "node:timers/promises";
import { DeltaBatcher, MAX_BATCHED_DELTA_CHARS } from "./delta-batcher.js";

function recorder() {
  const published: [string, string][] = [];
  const batcher = new DeltaBatcher((kind, text) => published.push([kind, text]));
  return { published, batcher };
}

describe("DeltaBatcher", () => {
  it("joins the text added within one event-loop turn into one delta", async () => {
    const { published, batcher } = recorder();
    batcher.add("text", "Hel");
    batcher.add("text", "lo, ");
    batcher.add("text", "world");
    expect(published).toEqual([]);
    await nextTurn();
    // The last character waits for what comes next (it could take a combining mark).
    expect(published).toEqual([["text", "Hello, worl"]]);
    batcher.flush();
    expect(published).toEqual([
      ["text", "Hello, worl"],
      ["text", "d"],
    ]);
  });

  it("publishes text added in later turns as later deltas", async () => {
    const { published, batcher } = recorder();
    batcher.add("text", "one");
    await nextTurn();
    batcher.add("text", " two");
    await nextTurn();
    batcher.flush();
    expect(published).toEqual([
      ["text", "on"],
      ["text", "e tw"],
      ["text", "o"],
    ]);
  });

  it("keeps reasoning and text apart and in order", async () => {
    const { published, batcher } = recorder();
    batcher.add("reasoning", "think ");
    batcher.add("reasoning", "more");
    batcher.add("text", "answer");
    batcher.add("reasoning", "late");
    await nextTurn();
    batcher.flush();
    expect(published).toEqual([
      ["reasoning", "think more"],
      ["text", "answer"],
      ["reasoning", "lat"],
      ["reasoning", "e"],
    ]);
  });

  it("publishes at once past the size bound and on flush, and never an empty delta", async () => {
    const { published, batcher } = recorder();
    batcher.add("text", "");
    batcher.add("text", "x".repeat(MAX_BATCHED_DELTA_CHARS));
    expect(published).toEqual([["text", "x".repeat(MAX_BATCHED_DELTA_CHARS - 1)]]);
    batcher.add("text", "tail");
    batcher.flush();
    batcher.flush();
    expect(published.at(-1)).toEqual(["text", "xtail"]);
    await nextTurn();
    expect(published).toHaveLength(2);
  });

  it("never splits a character a provider split across chunks (issue #31)", async () => {
    const { published, batcher } = recorder();
    // 😀 as two halves, é as e + U+0301, 👍🏽 as thumbs + skin tone, 漢 whole.
    for (const chunk of ["Hi \ud83d", "\ude00 cafe", "\u0301 👍", "🏽 漢", "字"]) {
      batcher.add("text", chunk);
      await nextTurn();
    }
    batcher.flush();
    expect(published.map(([, text]) => text)).toEqual([
      // A lone high surrogate holds the character before it too.
      "Hi",
      " 😀 caf",
      "e\u0301 ",
      "👍🏽 ",
      "漢",
      "字",
    ]);
  });

  it("holds text until ready, then publishes it joined; drops it when ready rejects", async () => {
    let release!: () => void;
    const ready = new Promise<void>((resolve) => (release = resolve));
    const published: string[] = [];
    const batcher = new DeltaBatcher((_, text) => published.push(text), ready);
    batcher.add("reasoning", "thinking");
    batcher.add("text", "held ");
    await nextTurn();
    batcher.add("text", "text");
    batcher.flush();
    expect(published).toEqual([]);
    release();
    await batcher.drain();
    // Ready came once the call was ending: everything in one delta.
    expect(published).toEqual(["thinking", "held text"]);

    const failed: string[] = [];
    const refused = new DeltaBatcher(
      (_, text) => failed.push(text),
      Promise.reject(new Error("no")),
    );
    refused.add("text", "lost");
    await refused.drain();
    refused.add("text", "also lost");
    await nextTurn();
    expect(failed).toEqual([]);
  });
});
