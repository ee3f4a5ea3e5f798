import type { TroupeClient } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { createGateway } from "../create-gateway.js";
import { noFleet } from "../testing/no-fleet.js";
import { GatewayError } from "../http/gateway-error.js";
import { uploadMediaType } from "./media-route.js";

/** A request whose body streams `chunks` and counts how many were pulled. */
function streamed(chunks: number, chunkBytes: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === chunks) controller.close();
        else {
          pulled += 1;
          controller.enqueue(new Uint8Array(chunkBytes).fill(7));
        }
      },
    },
    { highWaterMark: 0 },
  ); // nothing is pulled before a read
  const request = new Request("http://gateway/v1/media", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  });
  return { request, pulled: () => pulled };
}

/** A gateway whose client records the sizes of the uploads it is given. */
function uploadingGateway(maxMediaBytes: number) {
  const uploaded: number[] = [];
  // Only the routing and the cap are under test here; the upload itself is in
  // test/src/gateway/rest-media.test.ts against a real deployment.
  const client = {
    uploadMedia: (data: Uint8Array, options: { mediaType: string }) => {
      uploaded.push(data.length);
      return Promise.resolve({
        digest: "sha256:x",
        mediaType: options.mediaType,
        size: data.length,
      });
    },
  } as unknown as TroupeClient;
  const gateway = createGateway({
    client,
    fleet: noFleet,
    console: false,
    limits: { maxBodyBytes: 100, maxMediaBytes },
  });
  return { gateway, uploaded };
}

describe("POST /v1/media (issue #19)", () => {
  it("takes a streamed body within the cap, whole", async () => {
    const { gateway, uploaded } = uploadingGateway(40);
    const { request } = streamed(4, 10, { "content-type": "image/png" });
    expect((await gateway.app.request(request)).status).toBe(201);
    expect(uploaded).toEqual([40]);
  });

  it("refuses a Content-Length over the cap before reading anything", async () => {
    const { gateway, uploaded } = uploadingGateway(40);
    const { request, pulled } = streamed(4, 10, {
      "content-type": "image/png",
      "content-length": "41",
    });
    const response = await gateway.app.request(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "body_too_large" });
    expect(pulled()).toBe(0);
    expect(uploaded).toEqual([]);
  });

  it("stops reading as soon as a body without Content-Length passes the cap", async () => {
    const { gateway, uploaded } = uploadingGateway(40);
    const { request, pulled } = streamed(1_000, 10, { "content-type": "image/png" });
    expect((await gateway.app.request(request)).status).toBe(413);
    expect(pulled()).toBeLessThan(10);
    expect(uploaded).toEqual([]);
  });

  it("takes the media type from Content-Type without parameters, lowercased", () => {
    expect(uploadMediaType("image/PNG")).toBe("image/png");
    expect(uploadMediaType("text/plain; charset=utf-8")).toBe("text/plain");
    for (const bad of [undefined, "", "png", "image/", "image/png png"]) {
      expect(() => uploadMediaType(bad), String(bad)).toThrow(GatewayError);
    }
  });

  it("is in /v1/openapi.json with the MediaRef it answers", async () => {
    const gateway = createGateway({ client: {} as TroupeClient, fleet: noFleet, console: false });
    const document = (await (await gateway.app.request("/v1/openapi.json")).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(document.paths["/v1/media"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["201", "401", "413", "415"]),
    );
    expect(Object.keys(document.components.schemas["MediaRef"]?.properties ?? {}).sort()).toEqual([
      "digest",
      "mediaType",
      "name",
      "size",
    ]);
  });

  it("keeps the JSON body cap on the other /v1 routes and its own cap on /v1/media", async () => {
    const { gateway, uploaded } = uploadingGateway(1_000);
    const post = (path: string, bytes: number, contentType: string) =>
      gateway.app.request(path, {
        method: "POST",
        headers: { "content-type": contentType, "content-length": String(bytes) },
        body: new Uint8Array(bytes),
      });
    expect((await post("/v1/sessions/a/messages", 500, "application/json")).status).toBe(413);
    expect((await post("/v1/media", 500, "image/png")).status).toBe(201);
    expect(uploaded).toEqual([500]);
    const media = await post("/v1/media", 1_001, "image/png");
    expect(media.status).toBe(413);
    expect(await media.json()).toMatchObject({ code: "body_too_large" });
    expect(uploaded).toEqual([500]);
  });
});
