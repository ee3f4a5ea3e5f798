/**
 * Media by reference (issue #19, docs/capabilities/media.md): images and files of user
 * messages and tool results live in the deployment's JetStream Object Store
 * (`<PREFIX>_MEDIA`); messages, snapshots and transcripts hold references;
 * the model call gets the bytes as image/file parts, or a text stand-in when
 * the agent's model does not accept them.
 */
import { createHash, randomBytes } from "node:crypto";
import { Objm } from "@nats-io/obj";
import { jetstream } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { defineAgent, defineTool, type ScriptedRequest } from "@troupe/agents";
import {
  MAX_MEDIA_BYTES,
  MediaRejectedError,
  inboxSubject,
  mediaBucketName,
  streamNames,
  type MediaRef,
} from "@troupe/protocol";
import {
  callTool,
  createTestDeployment,
  reply,
  scriptedModel,
  type TestDeployment,
} from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testRunMarker } from "../harness/test-run-marker.js";
import { readStream } from "../support/read-stream.js";

const PREFIX = "media";
const BUCKET = mediaBucketName(PREFIX);
/** 64 KiB of random bytes: far larger than any reference, and unlikely anywhere by chance. */
const photo = randomBytes(64 * 1024);
const chart = randomBytes(8 * 1024);
const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** Prompts the scripted models received, by session id. */
const prompts = new Map<string, LanguageModelV4Prompt[]>();
const record = (request: ScriptedRequest) => {
  const sessionId = String(request.troupe?.["sessionId"]);
  prompts.set(sessionId, [...(prompts.get(sessionId) ?? []), request.messages]);
};

const describer = defineAgent({
  name: "describer",
  instructions: "Describe what you are shown.",
  model: scriptedModel(({ messages, ...rest }) => {
    record({ messages, ...rest });
    return reply("A picture.");
  }),
});

const textOnly = defineAgent({
  name: "text-only",
  instructions: "You read text only.",
  media: { accepts: [] },
  model: scriptedModel(({ messages, ...rest }) => {
    record({ messages, ...rest });
    return reply("I cannot see it.");
  }),
});

const renderChart = defineTool({
  name: "render_chart",
  description: "Renders a chart as PNG.",
  inputSchema: z.object({ title: z.string() }),
  effectClass: "read",
  execute: ({ title }) =>
    Promise.resolve({
      title,
      chart: { type: "image", data: chart, mediaType: "image/png", name: "chart.png" },
    }),
});

const charter = defineAgent({
  name: "charter",
  instructions: "Draw charts.",
  tools: [renderChart],
  model: scriptedModel([
    (request) => {
      record(request);
      return callTool("render_chart", { title: "sales" });
    },
    (request) => {
      record(request);
      return reply("Here is the chart.");
    },
  ]),
});

/** Every part of every message of a prompt, flattened. */
function partsOf(prompt: LanguageModelV4Prompt | undefined): Record<string, unknown>[] {
  return (prompt ?? []).flatMap((message) =>
    typeof message.content === "string"
      ? []
      : (message.content as unknown as Record<string, unknown>[]),
  );
}

/** The bytes of a provider file part (`data` raw, or tagged `{ type: "data", data }`). */
function bytesOf(part: Record<string, unknown> | undefined): Buffer {
  const data = part?.["data"];
  const raw =
    typeof data === "object" && data !== null && "type" in data && "data" in data
      ? (data as { data: unknown }).data
      : data;
  if (typeof raw === "string") return Buffer.from(raw, "base64");
  return Buffer.from(raw as Uint8Array);
}

describe("media by reference", () => {
  let deployment: TestDeployment;
  let nats: NatsConnection;

  beforeAll(async () => {
    deployment = await createTestDeployment({
      agents: [describer, textOnly, charter],
      prefix: PREFIX,
      servers: { dataDirPrefix: testRunMarker() },
    });
    nats = await connect({ servers: deployment.natsUrl });
  }, 60_000);

  afterAll(async () => {
    await nats?.close();
    await deployment?.stop();
  });

  const bucket = () => new Objm(jetstream(nats)).open(BUCKET);
  const objectNames = async () =>
    (await (await bucket()).list()).filter((info) => !info.deleted).map((info) => info.name);

  it("a user message's image goes to the Object Store; message, transcript and snapshot hold only the reference; the model gets an image part", async () => {
    const ref = await deployment.client.uploadMedia(photo, {
      mediaType: "image/png",
      name: "photo.png",
    });
    expect(ref).toEqual({
      digest: sha256(photo),
      mediaType: "image/png",
      size: photo.length,
      name: "photo.png",
    });
    // A retried upload of the same bytes stores nothing new.
    expect(
      await deployment.client.uploadMedia(photo, { mediaType: "image/png", name: "photo.png" }),
    ).toEqual(ref);
    expect((await objectNames()).filter((name) => name === ref.digest)).toHaveLength(1);

    const outcome = await deployment.sendAndWait("photo-1", {
      text: "What is in this picture?",
      agent: "describer",
      attachments: [ref],
    });
    expect(outcome).toMatchObject({ status: "completed", text: "A picture." });

    // The model call: the user message's parts are the text and the image's bytes.
    const parts = partsOf(prompts.get("photo-1")?.[0]);
    expect(parts[0]).toMatchObject({ type: "text", text: "What is in this picture?" });
    expect(parts[1]).toMatchObject({ type: "file", mediaType: "image/png" });
    expect(sha256(bytesOf(parts[1]))).toBe(ref.digest);

    // The journal (inbox) and the transcript hold the reference, never the bytes.
    const streams = streamNames(PREFIX);
    const marker = photo.subarray(1000, 1032);
    const js = jetstream(nats);
    for (const stream of [streams.inbox, streams.transcript, streams.events]) {
      const stored = await readStream(js, stream, ">");
      expect(stored.length).toBeGreaterThan(0);
      for (const message of stored) {
        expect(Buffer.from(message.data).includes(marker), `${stream} holds the image bytes`).toBe(
          false,
        );
      }
    }
    const transcript = await readStream(js, streams.transcript, ">");
    const entries = transcript.map((message) => Buffer.from(message.data).toString("latin1"));
    expect(entries.some((entry) => entry.includes(ref.digest))).toBe(true);
    // Snapshots (Redis): no value holds the bytes either.
    const keys = await deployment.redis.keys("*");
    for (const key of keys) {
      const type = await deployment.redis.type(key);
      if (type !== "string") continue;
      const value = await deployment.redis.getBuffer(key);
      expect(value?.includes(marker) ?? false, `Redis key ${key} holds the image bytes`).toBe(
        false,
      );
    }
  });

  it("a tool's image is stored by reference and passed to the next model call", async () => {
    const outcome = await deployment.sendAndWait("chart-1", {
      text: "Chart sales",
      agent: "charter",
    });
    expect(outcome).toMatchObject({ status: "completed", text: "Here is the chart." });
    const expected: MediaRef = {
      digest: sha256(chart),
      mediaType: "image/png",
      size: chart.length,
      name: "chart.png",
    };

    const [completed] = await deployment.expectEvents("chart-1", ["tool.completed"]);
    expect(completed.payload.media).toEqual([expected]);
    expect(JSON.parse(completed.payload.content ?? "")).toEqual({
      title: "sales",
      chart: { type: "image", ...expected },
    });
    expect(await objectNames()).toContain(expected.digest);

    const second = prompts.get("chart-1")?.[1];
    const result = partsOf(second).find((part) => part["type"] === "tool-result");
    const output = result?.["output"] as { type: string; value: Record<string, unknown>[] };
    expect(output.type).toBe("content");
    expect(output.value[0]).toMatchObject({ type: "text" });
    const media = output.value.find((part) => part["type"] !== "text");
    expect(media).toMatchObject({ mediaType: "image/png" });
    expect(sha256(bytesOf(media))).toBe(expected.digest);
  });

  it("a model that does not accept images gets a text stand-in naming the attachment", async () => {
    const ref = await deployment.client.uploadMedia(photo, {
      mediaType: "image/png",
      name: "photo.png",
    });
    const outcome = await deployment.sendAndWait("text-only-1", {
      text: "What is this?",
      agent: "text-only",
      attachments: [ref],
    });
    expect(outcome).toMatchObject({ status: "completed", text: "I cannot see it." });
    const parts = partsOf(prompts.get("text-only-1")?.[0]);
    expect(parts).toEqual([
      expect.objectContaining({ type: "text", text: "What is this?" }),
      expect.objectContaining({
        type: "text",
        text: `[Attachment "photo.png" (image/png, ${photo.length} bytes, ${ref.digest}) not shown: this model does not accept image/png.]`,
      }),
    ]);
  });

  it("over the size limit, of a type not allowed, or not uploaded: a typed error and nothing stored or published", async () => {
    const before = await objectNames();
    const inboxBefore = (await readStream(jetstream(nats), streamNames(PREFIX).inbox, ">")).length;
    const refusal = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(MediaRejectedError.isInstance(error), String(error)).toBe(true);
      return error as MediaRejectedError;
    };

    const tooLarge = await refusal(
      deployment.client.uploadMedia(new Uint8Array(MAX_MEDIA_BYTES + 1), {
        mediaType: "image/png",
      }),
    );
    expect(tooLarge).toMatchObject({ code: "media_rejected", reason: "too_large" });
    expect(tooLarge.details).toMatchObject({
      sizeBytes: MAX_MEDIA_BYTES + 1,
      limit: MAX_MEDIA_BYTES,
    });

    const video = await refusal(
      deployment.client.uploadMedia(randomBytes(10), { mediaType: "video/mp4" }),
    );
    expect(video.reason).toBe("type_not_allowed");

    const never: MediaRef = { digest: sha256(randomBytes(32)), mediaType: "image/png", size: 32 };
    const missing = await refusal(
      deployment.client.send("limits-1", { text: "see this", attachments: [never] }),
    );
    expect(missing.reason).toBe("not_found");

    expect(await objectNames()).toEqual(before);
    expect((await readStream(jetstream(nats), streamNames(PREFIX).inbox, ">")).length).toBe(
      inboxBefore,
    );
  });

  it("a reference over the wire ceiling published without the SDK is refused by the session (message.rejected)", async () => {
    const body = JSON.stringify({
      type: "user.message",
      text: "huge",
      attachments: [{ digest: sha256(photo), mediaType: "image/png", size: MAX_MEDIA_BYTES + 1 }],
    });
    await jetstream(nats).publish(
      inboxSubject({ kind: "session", id: "raw-1" }),
      new TextEncoder().encode(body),
    );
    const [rejected] = await deployment.expectEvents("raw-1", ["message.rejected"], {
      timeoutMs: 15_000,
    });
    expect(JSON.stringify(rejected.payload)).toContain("attachments");
    expect((await deployment.events("raw-1")).map((event) => event.type)).not.toContain(
      "run.started",
    );
  });
});
