import { describe, expect, it } from "vitest";
import { transcriptEntrySchema } from "./transcript-entry.js";

describe("transcriptEntrySchema", () => {
  it("accepts a user entry and an assistant entry", () => {
    const user = { role: "user", text: "hello", messageId: "session/s1:in:1" };
    const assistant = { role: "assistant", text: "Hi!", runId: "r1" };
    expect(transcriptEntrySchema.parse(user)).toEqual(user);
    expect(transcriptEntrySchema.parse(assistant)).toEqual(assistant);
  });

  it("refuses an entry whose role it does not know or whose fields are missing", () => {
    expect(transcriptEntrySchema.safeParse({ role: "system", text: "x" }).success).toBe(false);
    expect(transcriptEntrySchema.safeParse({ role: "assistant", text: "x" }).success).toBe(false);
    expect(transcriptEntrySchema.safeParse({ role: "user", text: "x" }).success).toBe(false);
  });
});
