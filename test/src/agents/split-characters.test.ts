/**
 * Issue #31: text survives streaming. A provider (a real HTTP server speaking
 * OpenAI's chat-completions stream) splits characters across its chunks: an
 * emoji's surrogate pair across two frames, a letter and its combining accent,
 * an emoji and its skin tone, and a CJK ideograph's UTF-8 bytes across two
 * TCP writes. Every `run.delta` holds whole characters only, the transcript and
 * the answer hold the text exactly, and so does `/api/chat`'s UI stream.
 */
import { jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { defineAgent } from "@troupe/agents";
import { decodeTranscriptEntry, transcriptSubject } from "@troupe/protocol";
import { streamNames } from "@troupe/protocol/internal";
import { createGateway } from "@troupe/gateway";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { uiTextDeltas } from "../support/ui-text-deltas.js";
import { readStream } from "../support/read-stream.js";
import {
  sendChunk,
  startHostileModelServer,
  startSse,
  type HostileModelServer,
} from "../support/hostile-model-server.js";

/** The answer as the provider means it: 😀, é as e + U+0301, 👍🏽, 漢字. */
const ANSWER = "Hi 😀 cafe\u0301 👍🏽 漢字!";
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const clusters = (text: string) => [...segmenter.segment(text)].map((part) => part.segment);

/**
 * Streams ANSWER with the splits a tokenizer-level provider can make, each
 * piece 15 ms after the one before (so each reaches the host on its own, as
 * a slow provider's would, rather than joined with the next).
 */
async function streamSplit(response: Parameters<typeof startSse>[0]): Promise<void> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
  startSse(response);
  sendChunk(response, { role: "assistant", content: "Hi \ud83d" });
  for (const content of ["\ude00 cafe", "\u0301 👍", "🏽 "]) {
    await pause();
    sendChunk(response, { content });
  }
  // One frame, written in two parts that cut 漢 (E6 BC A2) after its first byte.
  const frame = Buffer.from(
    `data: ${JSON.stringify({
      id: "chatcmpl-split",
      object: "chat.completion.chunk",
      created: 1,
      model: "hostile",
      choices: [{ index: 0, delta: { content: "漢字!" }, finish_reason: null }],
    })}\n\n`,
  );
  const cut = frame.indexOf(Buffer.from("漢")) + 1;
  await pause();
  response.write(frame.subarray(0, cut));
  await pause();
  response.write(frame.subarray(cut));
  sendChunk(response, {}, "stop");
  response.end("data: [DONE]\n\n");
}

describe("characters split across provider chunks arrive whole (issue #31)", () => {
  let model: HostileModelServer;
  let deployment: TestDeployment;

  beforeAll(async () => {
    model = await startHostileModelServer((response) => streamSplit(response));
    const splitter = defineAgent({
      name: "splitter",
      instructions: "Answer.",
      model: `openai-compatible:${model.baseURL}#hostile`,
    });
    deployment = await createTestDeployment({
      agents: [splitter],
      prefix: "split",
      servers: { dataDirPrefix: testRunMarker() },
    });
  }, 60_000);

  afterAll(async () => {
    await deployment?.stop();
    await model?.close();
  });

  it("in run.delta events, the transcript and the run's answer", async () => {
    const texts: string[] = [];
    const outcome = await deployment.sendAndWait(
      "split-1",
      { text: "go", agent: "splitter" },
      {
        onEvent: ({ event }) => {
          if (event.type === "run.delta") texts.push((event.payload as { text: string }).text);
        },
      },
    );
    expect(outcome).toMatchObject({ status: "completed", text: ANSWER });
    expect(texts.join("")).toBe(ANSWER);
    // Each delta is a run of whole clusters of the answer, in order.
    const expected = clusters(ANSWER);
    let at = 0;
    for (const text of texts) {
      for (const cluster of clusters(text)) {
        expect(cluster).toBe(expected[at]);
        at += 1;
      }
    }
    expect(at).toBe(expected.length);
    const nats = await connect({ servers: deployment.natsUrl });
    try {
      const stored = await readStream(
        jetstream(nats),
        streamNames("split").transcript,
        transcriptSubject("split-1"),
      );
      const entries = stored.map((message) => decodeTranscriptEntry(message.data)?.entry);
      expect(entries.at(-1)).toMatchObject({ role: "assistant", text: ANSWER });
    } finally {
      await nats.close();
    }
  });

  it("in /api/chat's UI message stream", async () => {
    const gateway = createGateway({ client: deployment.client, console: false });
    const response = await gateway.app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: "split-2",
        messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "go" }] }],
        trigger: "submit-message",
      }),
    });
    expect(response.status).toBe(200);
    const deltas = uiTextDeltas(await response.text());
    expect(deltas.join("")).toBe(ANSWER);
    for (const delta of deltas) {
      // No half of a pair at either end, no mark without its letter.
      const first = delta.codePointAt(0) ?? 0;
      const lowSurrogate = delta.charCodeAt(0) >= 0xdc00 && delta.charCodeAt(0) <= 0xdfff;
      const skinTone = first >= 0x1f3fb && first <= 0x1f3ff;
      expect(lowSurrogate || skinTone || /^\p{M}/u.test(delta), delta).toBe(false);
      const last = delta.charCodeAt(delta.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff, delta).toBe(false);
    }
  });
});
