import { describe, expect, it } from "vitest";
import { GatewayError } from "../http/gateway-error.js";
import { clientMessageIdOf, readChatRequest } from "./chat-request.js";

const user = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });

function errorOf(body: unknown): GatewayError {
  try {
    readChatRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("no error");
}

describe("readChatRequest", () => {
  it("sends the last user message with its UI id as the client message id", () => {
    expect(
      readChatRequest({
        id: "s-1",
        messages: [
          user("u1", "first"),
          { id: "troupe:s-1:r1", role: "assistant", parts: [] },
          user("u2", "hi"),
        ],
        trigger: "submit-message",
        messageId: undefined,
      }),
    ).toEqual({ kind: "send", sessionId: "s-1", text: "hi", clientMessageId: "u2" });
    expect(readChatRequest({ id: "s-1", message: user("u3", "only the last") })).toMatchObject({
      text: "only the last",
      clientMessageId: "u3",
    });
  });

  it("maps a UI id that is not actor-id-safe to a stable hashed client message id", () => {
    const id = clientMessageIdOf("msg with spaces/1");
    expect(id).toMatch(/^h[0-9a-f]{40}$/);
    expect(clientMessageIdOf("msg with spaces/1")).toBe(id);
    expect(clientMessageIdOf("msg with spaces/2")).not.toBe(id);
  });

  it("reads the approval responses of the last assistant message, with their owner sessions", () => {
    const action = readChatRequest({
      id: "s-1",
      messages: [
        user("u1", "email ada"),
        {
          id: "troupe:s-1:r4",
          role: "assistant",
          metadata: { sessionId: "s-1", runId: "r4", runStartSequence: 17 },
          parts: [
            { type: "step-start" },
            {
              type: "dynamic-tool",
              toolCallId: "c1",
              state: "approval-responded",
              approval: { id: "s-1:c1", approved: true },
            },
            {
              type: "dynamic-tool",
              toolCallId: "sub-t1:c1",
              state: "approval-responded",
              approval: { id: "sub-t1:c1", approved: false, reason: "no" },
            },
            {
              type: "dynamic-tool",
              toolCallId: "c0",
              state: "output-available",
              approval: { id: "s-1:c0", approved: true },
            },
          ],
        },
      ],
    });
    expect(action).toEqual({
      kind: "approvals",
      sessionId: "s-1",
      runId: "r4",
      runStartSequence: 17,
      responses: [
        {
          approvalId: "s-1:c1",
          ownerSessionId: "s-1",
          toolCallId: "c1",
          approved: true,
          reason: undefined,
        },
        {
          approvalId: "sub-t1:c1",
          ownerSessionId: "sub-t1",
          toolCallId: "c1",
          approved: false,
          reason: "no",
        },
      ],
    });
  });

  it("refuses what is not a chat request with a 400 naming the problem", () => {
    expect(errorOf("text")).toMatchObject({ status: 400, code: "invalid_request" });
    expect(errorOf({ id: "bad id", messages: [user("u", "x")] }).message).toContain(
      "Invalid chat id",
    );
    expect(errorOf({ id: "s", messages: [] }).message).toBe("The chat request carries no message.");
    expect(errorOf({ id: "s", messages: [user("u", "  ")] }).message).toBe(
      "The last user message has no text.",
    );
    expect(
      errorOf({ id: "s", messages: [{ id: "x", role: "assistant", parts: [] }] }).message,
    ).toContain("is not an answer of session s");
    expect(
      errorOf({ id: "s", messages: [{ id: "troupe:s:r1", role: "assistant", parts: [] }] }).message,
    ).toContain("answers no approval");
    expect(
      errorOf({
        id: "s",
        messages: [
          {
            id: "troupe:s:r1",
            role: "assistant",
            parts: [
              {
                type: "dynamic-tool",
                state: "approval-responded",
                approval: { id: "other:c1", approved: true },
              },
            ],
          },
        ],
      }).message,
    ).toBe('Unknown approval id "other:c1".');
  });
});
