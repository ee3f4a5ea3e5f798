import { describe, expect, it } from "vitest";
import { AnswerStream } from "./answer-stream.js";

const delta = (text: string, index: number, attempt = 1, modelCallId = "mc1") => ({
  runId: "r1",
  modelCallId,
  attempt,
  kind: "text" as const,
  text,
  index,
});

describe("AnswerStream", () => {
  it("replaces on the first delta, appends the next, and ends with an empty append when the deltas are the answer", () => {
    const stream = new AnswerStream();
    expect(stream.add(delta("It ", 0))).toEqual({ text: "It ", append: false });
    expect(stream.add(delta("is ", 1))).toEqual({ text: "is ", append: true });
    expect(stream.add(delta("12:00.", 2))).toEqual({ text: "12:00.", append: true });
    expect(stream.finish("It is 12:00.")).toEqual({ text: "", append: true });
  });

  it("drops a repeated delta, ignores reasoning, and restarts the artifact on a new attempt", () => {
    const stream = new AnswerStream();
    stream.add(delta("Hel", 0));
    expect(stream.add(delta("Hel", 0))).toBeUndefined();
    expect(stream.add({ ...delta("thinking", 1), kind: "reasoning" })).toBeUndefined();
    expect(stream.add(delta("Hello", 0, 2))).toEqual({ text: "Hello", append: false });
    expect(stream.streamed).toBe("Hello");
  });

  it("sends the whole answer as a replacement when the deltas differ from it (or there were none)", () => {
    const stream = new AnswerStream();
    expect(stream.finish("All of it.")).toEqual({ text: "All of it.", append: false });
    stream.add(delta("Part", 0));
    expect(stream.finish("Partly different.")).toEqual({
      text: "Partly different.",
      append: false,
    });
  });
});
