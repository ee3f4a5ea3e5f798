import { describe, expect, it } from "vitest";
import { MediaRejectedError } from "@troupe/addressing";
import { assertMediaAllowed, assertMediaCount, mediaTypeMatches } from "./media-limits.js";
import { MAX_MEDIA_BYTES, mediaRefSchema } from "./media-ref.js";
import { userMessageSchema } from "./messages/session-commands.js";

const digest = `sha256:${"a".repeat(64)}`;

function rejection(run: () => void): MediaRejectedError {
  try {
    run();
  } catch (error) {
    if (MediaRejectedError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a MediaRejectedError");
}

describe("media limits", () => {
  it("matches exact media types and type/* wildcards only", () => {
    expect(mediaTypeMatches("image/png", ["image/*"])).toBe(true);
    expect(mediaTypeMatches("image/png", ["image/jpeg"])).toBe(false);
    expect(mediaTypeMatches("application/pdf", ["image/*", "application/pdf"])).toBe(true);
    expect(mediaTypeMatches("video/mp4", ["*/*"])).toBe(true);
  });

  it("refuses an object over the configured limit with its size and the limit", () => {
    const error = rejection(() =>
      assertMediaAllowed({ size: 1025, mediaType: "image/png" }, { maxMediaBytes: 1024 }),
    );
    expect(error.code).toBe("media_rejected");
    expect(error.reason).toBe("too_large");
    expect(error.details).toMatchObject({ sizeBytes: 1025, limit: 1024 });
    expect(error.retryable).toBe(false);
  });

  it("never lets a configured limit exceed the wire ceiling", () => {
    const error = rejection(() =>
      assertMediaAllowed(
        { size: MAX_MEDIA_BYTES + 1, mediaType: "image/png" },
        { maxMediaBytes: MAX_MEDIA_BYTES * 2 },
      ),
    );
    expect(error.details).toMatchObject({ limit: MAX_MEDIA_BYTES });
  });

  it("refuses a media type outside the allowed list, and an empty object", () => {
    expect(rejection(() => assertMediaAllowed({ size: 10, mediaType: "video/mp4" })).reason).toBe(
      "type_not_allowed",
    );
    expect(rejection(() => assertMediaAllowed({ size: 0, mediaType: "image/png" })).reason).toBe(
      "empty",
    );
    expect(() => assertMediaAllowed({ size: 10, mediaType: "image/webp" })).not.toThrow();
  });

  it("refuses more attachments than one message may carry", () => {
    expect(rejection(() => assertMediaCount(3, { maxAttachments: 2 })).reason).toBe("too_many");
    expect(() => assertMediaCount(16)).not.toThrow();
    expect(rejection(() => assertMediaCount(17)).details).toMatchObject({ limit: 16 });
  });
});

describe("media references on the wire", () => {
  it("accepts a user.message with attachments and refuses unknown fields in a reference", () => {
    const attachment = { digest, mediaType: "image/png", size: 68, name: "dot.png" };
    expect(userMessageSchema.parse({ text: "look", attachments: [attachment] })).toEqual({
      text: "look",
      attachments: [attachment],
    });
    expect(mediaRefSchema.safeParse({ ...attachment, data: "AAAA" }).success).toBe(false);
  });

  it("refuses a reference over the wire ceiling, a bad digest and an empty list", () => {
    const ok = { digest, mediaType: "image/png", size: 1 };
    expect(mediaRefSchema.safeParse({ ...ok, size: MAX_MEDIA_BYTES + 1 }).success).toBe(false);
    expect(mediaRefSchema.safeParse({ ...ok, digest: "sha256:xyz" }).success).toBe(false);
    expect(mediaRefSchema.safeParse({ ...ok, mediaType: "PNG" }).success).toBe(false);
    expect(userMessageSchema.safeParse({ text: "x", attachments: [] }).success).toBe(false);
  });
});
