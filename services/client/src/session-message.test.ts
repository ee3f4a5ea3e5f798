import { DecodeError, InvalidAddressError, decodeMessage, encodeMessage } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { buildSessionMessage, userMessageEnvelopeId } from "./session-message.js";

describe("buildSessionMessage", () => {
  it("addresses the session inbox and puts the session in the JetStream dedup id", () => {
    const message = buildSessionMessage(
      "s-1",
      "user.message",
      { text: "hi" },
      {
        id: userMessageEnvelopeId("c1"),
        timestampMs: 5,
      },
    );
    expect(message).toEqual({
      subject: "troupe.session.s-1.in",
      msgID: "session/s-1/cm:c1",
      envelope: {
        v: 1,
        id: "cm:c1",
        type: "user.message",
        payload: { text: "hi" },
        meta: { timestampMs: 5 },
      },
    });
  });

  it("builds session.compact with an empty payload (issue #19)", () => {
    const message = buildSessionMessage("s-1", "session.compact", {}, { id: "k1", timestampMs: 7 });
    expect(message.envelope).toEqual({
      v: 1,
      id: "k1",
      type: "session.compact",
      payload: {},
      meta: { timestampMs: 7 },
    });
    expect(message.subject).toBe("troupe.session.s-1.in");
  });

  it("throws InvalidAddressError for an invalid session id", () => {
    expect(() =>
      buildSessionMessage("has space", "run.cancel", {}, { id: "x", timestampMs: 1 }),
    ).toThrow(InvalidAddressError);
  });

  it.each([
    ["run.steer", { text: "" }, ["payload", "text"]],
    ["run.steer", { text: "ok", runId: "r.1" }, ["payload", "runId"]],
    ["tool.approve", { toolCallId: "call 1" }, ["payload", "toolCallId"]],
    ["tool.deny", { toolCallId: "c1", sessionId: "a.b" }, ["payload", "sessionId"]],
    ["question.answer", { questionId: "q1", text: " " }, ["payload", "text"]],
    ["run.cancel", { reason: "x", force: true }, ["payload"]],
    ["session.compact", { now: true }, ["payload"]],
  ] as const)(
    "refuses %s %j before publishing, with the DecodeError the session would answer with (issue #11)",
    (type, payload, path) => {
      let thrown: unknown;
      try {
        buildSessionMessage("s-1", type, { ...payload }, { id: "x", timestampMs: 1 });
      } catch (error) {
        thrown = error;
      }
      expect(DecodeError.isInstance(thrown)).toBe(true);
      const clientError = thrown as DecodeError;
      expect(clientError.reason).toBe("schema_invalid");
      expect(clientError.issues?.[0]?.path).toEqual(path);
      // The session decodes the same payload to the same issues.
      const bytes = encodeMessage({
        v: 1,
        id: "x",
        type,
        payload: { ...payload },
        meta: { timestampMs: 1 },
      } as never).bytes;
      let sessionError: unknown;
      try {
        decodeMessage(bytes, { defaults: { id: "x", timestampMs: 1 } });
      } catch (error) {
        sessionError = error;
      }
      expect((sessionError as DecodeError).issues).toEqual(clientError.issues);
    },
  );
});
