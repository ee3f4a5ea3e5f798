import { describe, expect, it } from "vitest";
import { MediaRejectedError } from "@troupe/protocol";
import { mediaDigest, objectStoreDigestOf } from "./media-digest.js";
import { extractToolMedia } from "./tool-result-media.js";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 7]);

describe("media in tool results", () => {
  it("replaces each image or file by its reference, in place, and returns the bytes", () => {
    const result = {
      caption: "radar",
      radar: { type: "image", data: png, mediaType: "image/png", name: "radar.png" },
      pages: [
        { type: "file", data: Buffer.from("hello").toString("base64"), mediaType: "text/plain" },
      ],
    };
    const { value, media } = extractToolMedia(result);
    const radar = { digest: mediaDigest(png), mediaType: "image/png", size: 5, name: "radar.png" };
    const text = { digest: mediaDigest(Buffer.from("hello")), mediaType: "text/plain", size: 5 };
    expect(value).toEqual({
      caption: "radar",
      radar: { type: "image", ...radar },
      pages: [{ type: "file", ...text }],
    });
    expect(media.map(({ ref }) => ref)).toEqual([radar, text]);
    expect([...(media[1]?.bytes ?? [])]).toEqual([...Buffer.from("hello")]);
  });

  it("shortens a long name to 255 code units without cutting an emoji in two (issue #31)", () => {
    // 254 letters, then a 4-unit emoji: a cut at 255 would keep half of it.
    const name = `${"a".repeat(254)}👍🏽.png`;
    const { media } = extractToolMedia({ type: "image", data: png, mediaType: "image/png", name });
    expect(media[0]?.ref.name).toBe("a".repeat(254));
  });

  it("leaves a result without media as it is (same object)", () => {
    const result = { type: "image", url: "https://example.com/x.png" };
    expect(extractToolMedia(result).value).toBe(result);
    expect(extractToolMedia("plain text").media).toEqual([]);
  });

  it("refuses media over the limit or of a type not allowed, with a MediaRejectedError", () => {
    const big = { type: "image", data: new Uint8Array(11), mediaType: "image/png" };
    const reason = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return MediaRejectedError.isInstance(error) ? error.reason : "other";
      }
      return "none";
    };
    expect(reason(() => extractToolMedia(big, { maxMediaBytes: 10 }))).toBe("too_large");
    expect(
      reason(() => extractToolMedia({ type: "file", data: png, mediaType: "video/mp4" })),
    ).toBe("type_not_allowed");
    expect(reason(() => extractToolMedia([big, big], { maxAttachments: 1 }))).toBe("too_many");
  });
});

describe("digests", () => {
  it("writes the Object Store's digest form: SHA-256= and the padded base64url of the hash", () => {
    // SHA-256 of "" is e3b0c442…b855; its padded base64url as nats.js computes it.
    expect(objectStoreDigestOf(mediaDigest(new Uint8Array()))).toBe(
      "SHA-256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU=",
    );
  });
});
