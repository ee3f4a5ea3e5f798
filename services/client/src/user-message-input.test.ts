import { InvalidAddressError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { toUserMessage } from "./user-message-input.js";

describe("toUserMessage", () => {
  it("takes a plain text and generates the client message id", () => {
    expect(toUserMessage("hello", () => "gen-1")).toEqual({
      text: "hello",
      clientMessageId: "gen-1",
    });
  });

  it("keeps the given fields and refuses an unsafe client message id or an empty text", () => {
    const fields = { text: "hi", clientMessageId: "c-1", agent: "demo", metadata: { a: 1 } };
    expect(toUserMessage(fields, () => "unused")).toEqual(fields);
    expect(() => toUserMessage({ text: "hi", clientMessageId: "a.b" }, () => "x")).toThrow(
      InvalidAddressError,
    );
    expect(() => toUserMessage("", () => "x")).toThrow(RangeError);
  });
});
