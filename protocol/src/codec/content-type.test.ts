import { describe, expect, it } from "vitest";
import { codecForContentType, contentTypeFor, sniffCodec } from "./content-type.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("content types", () => {
  it("name each codec", () => {
    expect(contentTypeFor("msgpack")).toBe("application/msgpack");
    expect(contentTypeFor("json")).toBe("application/json");
    expect(() => contentTypeFor("xml" as "json")).toThrow(RangeError);
  });

  it.each([
    ["application/json", "json"],
    ["Application/JSON; charset=utf-8", "json"],
    [" application/json ", "json"],
    ["application/msgpack", "msgpack"],
    ["application/x-msgpack", "msgpack"],
    ["application/vnd.msgpack", "msgpack"],
    ["text/plain", undefined],
    ["constructor", undefined],
    ["", undefined],
  ])("read %j as %s", (header, codec) => {
    expect(codecForContentType(header)).toBe(codec);
  });

  it("sniff JSON from a leading {, after whitespace or a byte order mark, and msgpack otherwise", () => {
    expect(sniffCodec(bytes('{"type":"x"}'))).toBe("json");
    expect(sniffCodec(bytes(' \r\n\t{"type":"x"}'))).toBe("json");
    expect(sniffCodec(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe("json");
    expect(sniffCodec(new Uint8Array([0x81, 0xa1, 0x76, 0x01]))).toBe("msgpack");
    expect(sniffCodec(bytes("[1]"))).toBe("msgpack");
    expect(sniffCodec(bytes("   "))).toBe("msgpack");
    expect(sniffCodec(new Uint8Array())).toBe("msgpack");
  });
});
