import { createHash } from "node:crypto";
import { TroupeClient } from "@troupe/client";
import { serveGateway, type ServingGateway } from "@troupe/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";

const ADMIN = "media-admin-token";
const TEAM = "media-team-token";
/** The gateway's upload cap in this suite, so that an oversize upload stays small. */
const MAX_MEDIA_BYTES = 64 * 1024;

// issue #19, "Media by reference" over HTTP: POST /v1/media of the gateway
// in-process (serveGateway) against a `troupe dev` cluster (real NATS
// JetStream Object Store), then a user message naming the upload.
describe("gateway POST /v1/media", () => {
  let dev: TroupeDev;
  let client: TroupeClient;
  let gateway: ServingGateway;

  beforeAll(async () => {
    dev = await startTroupeDev(["--no-gateway"]);
    client = await TroupeClient.connect({ natsUrl: (await dev.state()).natsUrl });
    gateway = await serveGateway({
      client,
      port: 0,
      auth: {
        tokens: [
          { token: ADMIN, name: "admin" },
          { token: TEAM, sessionPrefix: "team-", name: "team" },
        ],
      },
      limits: { maxMediaBytes: MAX_MEDIA_BYTES },
      console: false,
      log: () => undefined,
    });
  }, 150_000);

  afterAll(async () => {
    await gateway?.close();
    await client?.close();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  const upload = async (
    body: Uint8Array | ReadableStream<Uint8Array>,
    options: { contentType?: string; token?: string | null; query?: string } = {},
  ) => {
    const token = options.token === undefined ? ADMIN : options.token;
    const response = await fetch(`${gateway.url}/v1/media${options.query ?? ""}`, {
      method: "POST",
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(options.contentType === undefined ? {} : { "content-type": options.contentType }),
      },
      body,
      duplex: "half",
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const png = new Uint8Array(3_000).map((_, i) => (i * 31) % 256);
  const digest = `sha256:${createHash("sha256").update(png).digest("hex")}`;

  it("stores the bytes (201 MediaRef), again with the same digest, and a message may attach them", async () => {
    const first = await upload(png, { contentType: "image/png", query: "?name=cat.png" });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ digest, mediaType: "image/png", size: 3_000, name: "cat.png" });
    const again = await upload(png, { contentType: "image/png", token: TEAM });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ digest, mediaType: "image/png", size: 3_000 });

    const sent = await fetch(`${gateway.url}/v1/sessions/media-1/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({
        text: "What is in this picture?",
        clientMessageId: "media-1",
        attachments: [first.body],
      }),
    });
    expect(sent.status).toBe(202);
    expect(await sent.json()).toMatchObject({ sessionId: "media-1", duplicate: false });

    // A reference to bytes never uploaded is refused, nothing published.
    const missing = await fetch(`${gateway.url}/v1/sessions/media-2/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({
        text: "And this one?",
        attachments: [{ ...first.body, digest: `sha256:${"0".repeat(64)}` }],
      }),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      code: "media_rejected",
      details: { reason: "not_found" },
    });
  });

  it("refuses an oversize upload with 413, by Content-Length or while reading", async () => {
    const big = new Uint8Array(MAX_MEDIA_BYTES + 1);
    const declared = await upload(big, { contentType: "image/png" });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ status: 413, code: "body_too_large" });

    // Streamed without Content-Length: refused once the read passes the cap.
    let chunks = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks += 1;
        if (chunks > 10_000) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const streamed = await upload(endless, { contentType: "image/png" });
    expect(streamed.status).toBe(413);
    expect(chunks).toBeLessThan(10_000);

    // Exactly the cap is taken.
    expect(
      (await upload(new Uint8Array(MAX_MEDIA_BYTES), { contentType: "image/png" })).status,
    ).toBe(201);
  });

  it("refuses a missing, malformed or not allowed media type with 415, an empty body with 400", async () => {
    for (const contentType of [undefined, "png", "application/x-msdownload"]) {
      const refused = await upload(png, contentType === undefined ? {} : { contentType });
      expect(refused.status, String(contentType)).toBe(415);
      expect(refused.body).toMatchObject({ status: 415, code: "unsupported_media_type" });
    }
    const empty = await upload(new Uint8Array(0), { contentType: "image/png" });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: "media_rejected", details: { reason: "empty" } });
    const badName = await upload(png, { contentType: "image/png", query: "?name=" });
    expect(badName.status).toBe(400);
  });

  it("needs a valid bearer token (401)", async () => {
    expect((await upload(png, { contentType: "image/png", token: null })).status).toBe(401);
    const unknown = await upload(png, { contentType: "image/png", token: "nope" });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ code: "unauthorized" });
  });
});
