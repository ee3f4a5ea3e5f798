import { describe, expect, it } from "vitest";
import { readServerSentEvents, type TimedServerSentEvent } from "./sse-reader.js";

function streamOf(chunks: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe("readServerSentEvents", () => {
  it("times each event by the chunk that completed it and skips comments", async () => {
    const events: TimedServerSentEvent[] = [];
    const firstChunks: number[] = [];
    let clock = 100;
    await readServerSentEvents(
      streamOf([
        ": keep-alive\n\n",
        'id: 7\nevent: message.accepted\ndata: {"a":',
        "1}\n\nid: 7.1\nevent: run.delta\ndata: {}\n\n",
        "data: [DONE]\n\n",
      ]),
      {
        onEvent: (event) => events.push(event),
        onFirstChunk: (atMs) => firstChunks.push(atMs),
        now: () => (clock += 10),
      },
    );
    expect(firstChunks).toEqual([110]);
    expect(events).toEqual([
      { message: { id: "7", event: "message.accepted", data: '{"a":1}' }, arrivedAtMs: 130 },
      { message: { id: "7.1", event: "run.delta", data: "{}" }, arrivedAtMs: 130 },
      { message: { id: undefined, event: undefined, data: "[DONE]" }, arrivedAtMs: 140 },
    ]);
  });

  it("passes on the body's read error", async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls === 1) controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
        else controller.error(new Error("socket closed"));
      },
    });
    const data: string[] = [];
    await expect(
      readServerSentEvents(body, { onEvent: ({ message }) => data.push(message.data) }),
    ).rejects.toThrow("socket closed");
    expect(data).toEqual(["1"]);
  });
});
