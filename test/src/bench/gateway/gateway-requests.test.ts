import { describe, expect, it } from "vitest";
import { chatRequestBody } from "./gateway-requests.js";

describe("chatRequestBody", () => {
  it("is what DefaultChatTransport posts for a new user message: chat id, the message with its id, the trigger", () => {
    expect(JSON.parse(chatRequestBody("s-1", "m-1", "hello"))).toEqual({
      id: "s-1",
      messages: [{ id: "m-1", role: "user", parts: [{ type: "text", text: "hello" }] }],
      trigger: "submit-message",
    });
  });
});
