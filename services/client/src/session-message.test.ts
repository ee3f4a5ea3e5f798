import { InvalidAddressError } from "@troupe/protocol";
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

  it("throws InvalidAddressError for an invalid session id", () => {
    expect(() =>
      buildSessionMessage("has space", "run.cancel", {}, { id: "x", timestampMs: 1 }),
    ).toThrow(InvalidAddressError);
  });
});
