/**
 * Media by reference survives a crash (issue #19): a host SIGKILLed after the
 * upload, while the model call that reads the attachment streams, neither loses
 * nor duplicates it — the next host re-runs the call with the same bytes from
 * the Object Store, the bucket holds one object, the transcript one reference.
 */
import { createHash, randomBytes } from "node:crypto";
import { Objm } from "@nats-io/obj";
import { TroupeClient } from "@troupe/client";
import {
  decodeEvent,
  decodeTranscriptEntry,
  mediaBucketName,
  parseAddress,
  shardOf,
  transcriptSubject,
} from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { followSession } from "../support/session-events.js";

const MEDIA_HOST = "test/src/fixtures/media-agent-host.ts";

describe("media by reference across a host crash", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl, prefix: "troupe" });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  it("a host SIGKILLed after the upload, mid model call: the re-run gets the same image, stored once", async () => {
    // One at a time: two hosts importing the sources at once can outlast the ready timeout.
    const first = await cluster.startHost({}, { entry: MEDIA_HOST, readyTimeoutMs: 60_000 });
    const second = await cluster.startHost({}, { entry: MEDIA_HOST, readyTimeoutMs: 60_000 });
    await cluster.waitForBalance([first.hostId, second.hostId], 20_000);
    const owners = await cluster.owners();
    const sessionId = Array.from({ length: 100 }, (_, index) => `media-kill-${index}`).find(
      (id) => owners[shardOf(parseAddress(`run/${id}`), cluster.shardCount)] === second.hostId,
    )!;

    const image = randomBytes(300 * 1024);
    const digest = `sha256:${createHash("sha256").update(image).digest("hex")}`;
    const ref = await client.uploadMedia(image, { mediaType: "image/jpeg", name: "scan.jpg" });
    expect(ref.digest).toBe(digest);

    const log = followSession(cluster.nats, sessionId);
    await client.send(sessionId, { text: "What did you get?", attachments: [ref] });
    await log.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 2,
      20_000,
      "two deltas",
    );
    second.signal("SIGKILL");
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      30_000,
      "session.idle",
    );
    log.stop();

    const stored = (
      await readStream(cluster.js, cluster.streams.events, `troupe.session.${sessionId}.events.>`)
    )
      .map((message) => decodeEvent(message.data, { contentType: message.contentType }))
      .filter((event) => event.meta.transient !== true);
    const completed = stored.filter((event) => event.type === "run.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]?.payload).toMatchObject({
      text: `received image/jpeg of ${image.length} bytes ${digest} end`,
    });

    // One object for the digest, with the image's size.
    const bucket = await new Objm(cluster.js).open(mediaBucketName("troupe"));
    const objects = (await bucket.list()).filter((info) => info.name === digest && !info.deleted);
    expect(objects.map((info) => info.size)).toEqual([image.length]);

    // The transcript: one user entry with the reference, no bytes.
    const transcript = await readStream(
      cluster.js,
      cluster.streams.transcript,
      transcriptSubject(sessionId),
    );
    const users = transcript
      .map((message) => decodeTranscriptEntry(message.data)?.entry)
      .filter((entry) => entry?.role === "user");
    expect(users).toEqual([
      {
        role: "user",
        text: "What did you get?",
        messageId: expect.any(String) as string,
        attachments: [ref],
      },
    ]);
  }, 150_000);
});
