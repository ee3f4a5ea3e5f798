import { describe, expect, it } from "vitest";
import { MediaRejectedError, streamNames, type MediaRef } from "@troupe/protocol";
import { mediaBucketName } from "@troupe/protocol";
import { buildModelPrompt } from "./build-model-prompt.js";
import { defineAgent } from "./define-agent.js";
import type { TranscriptEntry } from "./transcript-entry.js";
import {
  mediaBucketOf,
  mediaDigest,
  type MediaStore,
  loadPromptMedia,
} from "@troupe/tools/internal";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 9]);
const refOf = (bytes: Uint8Array, mediaType: string, name?: string): MediaRef => ({
  digest: mediaDigest(bytes),
  mediaType,
  size: bytes.length,
  ...(name === undefined ? {} : { name }),
});
const image = refOf(png, "image/png", "dot.png");
const file = refOf(pdf, "application/pdf", "report.pdf");

/** A store over a map that counts reads; a digest it lacks is `not_found`. */
function mapStore(objects: readonly Uint8Array[]): MediaStore & { reads: number } {
  const byDigest = new Map(objects.map((bytes) => [mediaDigest(bytes), bytes]));
  const store = {
    reads: 0,
    put: () => Promise.reject(new Error("not used")),
    get: (ref: MediaRef) => {
      store.reads += 1;
      const bytes = byDigest.get(ref.digest);
      if (bytes === undefined) {
        return Promise.reject(new MediaRejectedError({ reason: "not_found", message: "gone" }));
      }
      return Promise.resolve(bytes);
    },
  };
  return store;
}

const agent = defineAgent({ name: "a", instructions: "Describe images." });
const userWith = (attachments: MediaRef[]): TranscriptEntry => ({
  role: "user",
  text: "What is this?",
  messageId: "m1",
  attachments,
});

describe("media in the prompt", () => {
  it("an image attachment becomes a file part with its image media type and bytes, a PDF a file part", async () => {
    const entries = [userWith([image, file])];
    const prompt = buildModelPrompt(
      agent,
      entries,
      await loadPromptMedia(entries, mapStore([png, pdf])),
    );
    expect(prompt.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "file", data: png, mediaType: "image/png", filename: "dot.png" },
          { type: "file", data: pdf, mediaType: "application/pdf", filename: "report.pdf" },
        ],
      },
    ]);
  });

  it("a model that accepts no media gets a text stand-in naming the attachment, and nothing is read", async () => {
    const entries = [userWith([image])];
    const store = mapStore([png]);
    const prompt = buildModelPrompt(agent, entries, await loadPromptMedia(entries, store, []));
    expect(store.reads).toBe(0);
    expect(prompt.messages[0]?.content).toEqual([
      { type: "text", text: "What is this?" },
      {
        type: "text",
        text: `[Attachment "dot.png" (image/png, 7 bytes, ${image.digest}) not shown: this model does not accept image/png.]`,
      },
    ]);
  });

  it("an attachment no longer in the store becomes a stand-in instead of failing the call", async () => {
    const entries = [userWith([image])];
    const media = await loadPromptMedia(entries, mapStore([]));
    const content = buildModelPrompt(agent, entries, media).messages[0]?.content;
    expect(content).toEqual([
      { type: "text", text: "What is this?" },
      {
        type: "text",
        text: `[Attachment "dot.png" (image/png, 7 bytes, ${image.digest}) not shown: it is no longer in the media store.]`,
      },
    ]);
  });

  it("a tool result with media becomes a content output: its text, then a file part per object", async () => {
    const entries: TranscriptEntry[] = [
      { role: "user", text: "chart please", messageId: "m1" },
      {
        role: "assistant",
        text: "",
        runId: "r1",
        toolCalls: [{ toolCallId: "c1", toolName: "chart", input: "{}" }],
      },
      {
        role: "tool",
        runId: "r1",
        toolCallId: "c1",
        toolName: "chart",
        status: "succeeded",
        content: '{"chart":{"type":"image"}}',
        media: [image],
      },
    ];
    const store = mapStore([png]);
    const prompt = buildModelPrompt(
      agent,
      entries,
      await loadPromptMedia([...entries, ...entries], store),
    );
    expect(store.reads).toBe(1);
    expect(prompt.messages[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "chart",
          output: {
            type: "content",
            value: [
              { type: "text", text: '{"chart":{"type":"image"}}' },
              {
                type: "file",
                data: { type: "data", data: png },
                mediaType: "image/png",
                filename: "dot.png",
              },
            ],
          },
        },
      ],
    });
  });

  it("a store failure other than a refusal fails the load (the model call is retried)", async () => {
    const failing: MediaStore = {
      put: () => Promise.reject(new Error("not used")),
      get: () => Promise.reject(new Error("NATS unavailable")),
    };
    await expect(loadPromptMedia([userWith([image])], failing)).rejects.toThrow("NATS unavailable");
  });

  it("the host's bucket name is the deployment's <PREFIX>_MEDIA", () => {
    for (const prefix of ["troupe", "acme-prod", "t1x"]) {
      expect(mediaBucketOf(streamNames(prefix))).toBe(mediaBucketName(prefix));
    }
  });
});
