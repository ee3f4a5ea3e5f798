import { Role, type Message, type Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2aMessageText, approvalReply, questionReply } from "./a2a-message-input.js";

const text = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: {},
  filename: "",
  mediaType: "text/plain",
});
const data = (value: unknown): Part => ({
  content: { $case: "data", value },
  metadata: {},
  filename: "",
  mediaType: "application/json",
});
const message = (...parts: Part[]): Message => ({
  messageId: "m1",
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts,
  metadata: {},
  extensions: [],
  referenceTaskIds: [],
});

describe("a2aMessageText", () => {
  it("joins text parts with a line break and gives a data part as its JSON", () => {
    expect(a2aMessageText(message(text("hello"), data({ city: "Paris" }), text("bye")))).toBe(
      'hello\n{"city":"Paris"}\nbye',
    );
  });

  it("refuses a file part and a message without text, saying what is accepted", () => {
    const file: Part = {
      content: { $case: "url", value: "https://example.com/a.pdf" },
      metadata: {},
      filename: "a.pdf",
      mediaType: "application/pdf",
    };
    expect(() => a2aMessageText(message(text("see"), file))).toThrow(
      /text and data parts.*application\/pdf/,
    );
    expect(() => a2aMessageText(message(text("  ")))).toThrow(/has no text/);
  });
});

describe("approvalReply", () => {
  it.each([
    ["approve", { approve: true }],
    ["Yes.", { approve: true }],
    ["ok go ahead", { approve: true, note: "go ahead" }],
    ["deny", { approve: false }],
    ["NO not this one", { approve: false, reason: "not this one" }],
  ])("reads the text %j", (reply, decision) => {
    expect(approvalReply(message(text(reply)))).toEqual(decision);
  });

  it("reads a data part {approve} with its reason or note", () => {
    expect(approvalReply(message(data({ approve: false, reason: "too late" })))).toEqual({
      approve: false,
      reason: "too late",
    });
    expect(approvalReply(message(data({ approve: true })))).toEqual({ approve: true });
  });

  it("refuses anything else with what to reply", () => {
    expect(() => approvalReply(message(text("maybe later")))).toThrow(/reply "approve" or "deny"/);
    expect(() => approvalReply(message(data({ approve: "yes" })))).toThrow(
      /reply "approve" or "deny"/,
    );
  });
});

describe("questionReply", () => {
  it("takes {answer} from a data part, else the text", () => {
    expect(questionReply(message(data({ answer: "Paris" }), text("ignored")))).toBe("Paris");
    expect(questionReply(message(text(" Tokyo ")))).toBe("Tokyo");
  });

  it("refuses an empty answer", () => {
    expect(() => questionReply(message(text(" ")))).toThrow(/waits for an answer/);
  });
});
