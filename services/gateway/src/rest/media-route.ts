import { createRoute, z } from "@hono/zod-openapi";
import { MAX_MEDIA_NAME_LENGTH, mediaRefSchema, mediaTypeSchema } from "@troupe/protocol";
import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";
import { errorBodySchema, GatewayError } from "../http/gateway-error.js";
import { gatewayErrorOf } from "./client-error.js";
import { BEARER_SECURITY, errorResponses, json } from "./openapi-parts.js";

/** The path of the upload route; the gateway's general body limit does not apply to it. */
export const MEDIA_UPLOAD_PATH = "/v1/media";

/** Query of `POST /v1/media`: `name`, the attachment's name (1 to 255 characters). */
const uploadQuerySchema = z.object({
  name: z
    .string()
    .min(1)
    .max(MAX_MEDIA_NAME_LENGTH)
    .optional()
    .openapi({ param: { name: "name", in: "query" }, example: "cat.png" }),
});

/** The 201 answer: the protocol's `MediaRef`. */
const mediaRefDocSchema = mediaRefSchema.meta({ id: "MediaRef" });

/**
 * The media type of an upload from its `Content-Type`: parameters (`;
 * charset=utf-8`) dropped and lowercased, as HTTP media types are
 * case-insensitive; then the protocol's `type/subtype` rule.
 *
 * @throws GatewayError 415 `unsupported_media_type` when missing or malformed.
 */
export function uploadMediaType(contentType: string | undefined): string {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType === "") {
    throw new GatewayError(
      415,
      "unsupported_media_type",
      "An upload needs a Content-Type naming its media type, e.g. image/png.",
    );
  }
  if (!mediaTypeSchema.safeParse(mediaType).success) {
    throw new GatewayError(
      415,
      "unsupported_media_type",
      `"${mediaType}" is not a media type "type/subtype", e.g. image/png.`,
    );
  }
  return mediaType;
}

/**
 * Registers `POST /v1/media` (docs/capabilities/media.md): the body is the raw
 * bytes, `Content-Type` their media type, `?name=` an optional file name. The
 * bytes go through `TroupeClient.uploadMedia` (its limits and allowed media
 * types) into the deployment's media Object Store; the answer is 201 with the
 * `MediaRef` to put in a message's `attachments`, also when the same bytes
 * were stored before (uploads are idempotent by digest).
 *
 * Any valid token may upload (no session is named, so a token's session
 * prefix does not apply); the reference is useful only in a message the
 * token may send. Bodies over `limits.maxMediaBytes` are refused with 413 by
 * the `bodyLimit` middleware `createGateway` puts on this path: before they
 * are read (`Content-Length`) or as soon as the read passes the limit.
 *
 * @param app - the gateway app.
 * @param context - the shared context.
 */
export function registerMediaRoute(app: GatewayApp, context: GatewayContext): void {
  const { client } = context;
  app.openapi(
    createRoute({
      method: "post",
      path: MEDIA_UPLOAD_PATH,
      summary: "Upload an image or file; answers the MediaRef for a message's attachments",
      description:
        "The body is the raw bytes and Content-Type their media type (parameters such as " +
        "charset are dropped; it must be one the deployment allows, by default PNG, JPEG, " +
        "GIF, WebP, PDF and plain text). Stored by SHA-256 digest: the same bytes again " +
        "answer 201 with the same reference and store nothing more.",
      tags: ["media"],
      security: BEARER_SECURITY,
      request: {
        query: uploadQuerySchema,
        body: {
          content: { "*/*": { schema: z.string().openapi({ format: "binary" }) } },
          required: true,
        },
      },
      responses: {
        201: json(mediaRefDocSchema, "Stored (or stored before) in the media Object Store"),
        ...errorResponses,
        413: json(errorBodySchema, "body_too_large: over the gateway's or the client's limit"),
        415: json(
          errorBodySchema,
          "unsupported_media_type: no, a malformed or a not allowed Content-Type",
        ),
      },
    }),
    async (c) => {
      const { name } = c.req.valid("query");
      const mediaType = uploadMediaType(c.req.header("content-type"));
      // The body is capped at limits.maxMediaBytes by hono's bodyLimit (create-gateway.ts).
      const data = new Uint8Array(await c.req.arrayBuffer());
      let ref;
      try {
        ref = await client.uploadMedia(data, {
          mediaType,
          ...(name === undefined ? {} : { name }),
        });
      } catch (error) {
        throw gatewayErrorOf(error);
      }
      return c.json(ref, 201);
    },
  );
}
