import { DecodeError, InvalidAddressError } from "@troupe/protocol";
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
    expect(() => toUserMessage("", () => "x")).toThrow(DecodeError);
  });

  it("fails with the session's own DecodeError for a blank text, a bad agent name or an unknown field (issue #11)", () => {
    const failure = (input: Parameters<typeof toUserMessage>[0]) => {
      try {
        toUserMessage(input, () => "c-1");
      } catch (error) {
        if (DecodeError.isInstance(error)) return error;
        throw error;
      }
      throw new Error("expected a DecodeError");
    };
    expect(failure("  \n").issues?.[0]?.path).toEqual(["payload", "text"]);
    expect(failure({ text: "hi", agent: "my agent" }).issues?.[0]?.path).toEqual([
      "payload",
      "agent",
    ]);
    const unknown = failure({ text: "hi", id: "m-1" } as Parameters<typeof toUserMessage>[0]);
    expect(unknown.issues?.[0]).toMatchObject({ code: "unrecognized_keys", keys: ["id"] });
    expect(unknown.reason).toBe("schema_invalid");
    expect(unknown.code).toBe("decode_failed");
  });
});
