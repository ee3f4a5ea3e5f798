import { MAX_TEXT_LENGTH } from "@troupe/protocol";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { MessageTextTooLongError, readMessageText } from "./message-text.js";

const stream = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

describe("readMessageText (troupe send <id> -)", () => {
  it("joins the chunks and drops one final line break only", async () => {
    expect(await readMessageText(stream("hello ", "wor", "ld\n"))).toBe("hello world");
    expect(await readMessageText(stream("two\n\n"))).toBe("two\n");
    expect(await readMessageText(stream("crlf\r\n"))).toBe("crlf");
    // A multi-byte character split across chunks survives.
    const euro = Buffer.from("€");
    const split = Readable.from([euro.subarray(0, 1), euro.subarray(1)]);
    expect(await readMessageText(split)).toBe("€");
  });

  it("accepts exactly the limit and refuses one character more, naming it", async () => {
    const atLimit = "a".repeat(MAX_TEXT_LENGTH);
    expect((await readMessageText(stream(atLimit, "\n"))).length).toBe(MAX_TEXT_LENGTH);
    const error = await readMessageText(stream(atLimit, "b")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MessageTextTooLongError);
    expect((error as MessageTextTooLongError).code).toBe("payload_too_large");
    expect((error as Error).message).toBe(
      "The message text from stdin is too long: a user message's text is at most 262,144 " +
        "characters (UTF-16 code units; the encoded message at most 1 MiB), this one is " +
        "262,145 characters. Nothing was sent.",
    );
  });

  it("stops reading a far too long input", async () => {
    const chunk = "x".repeat(65_536);
    let served = 0;
    const endless = (function* () {
      for (;;) {
        served += 1;
        yield Buffer.from(chunk);
      }
    })();
    await expect(readMessageText(endless)).rejects.toThrow(/this one is more than that/);
    expect(served).toBe(Math.floor((MAX_TEXT_LENGTH * 3 + 2) / chunk.length) + 1);
  });
});
