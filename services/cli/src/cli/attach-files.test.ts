import { describe, expect, it } from "vitest";
import { parseAttachSpec } from "./attach-files.js";

describe("--attach values", () => {
  it("infers the media type from the extension, names the attachment after the file", () => {
    expect(parseAttachSpec("./shots/Cat.PNG")).toEqual({
      path: "./shots/Cat.PNG",
      mediaType: "image/png",
      name: "Cat.PNG",
    });
    expect(parseAttachSpec("report.pdf").mediaType).toBe("application/pdf");
  });

  it("takes a media type written before the path", () => {
    expect(parseAttachSpec("image/jpeg:/tmp/frame")).toEqual({
      path: "/tmp/frame",
      mediaType: "image/jpeg",
      name: "frame",
    });
  });

  it("refuses a file whose media type it cannot tell, saying how to give it", () => {
    expect(() => parseAttachSpec("data.bin")).toThrow(/--attach image\/png:data\.bin/u);
  });
});
