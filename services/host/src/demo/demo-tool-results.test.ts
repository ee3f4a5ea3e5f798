import { describe, expect, it } from "vitest";
import { describeDemoToolResults } from "./demo-tool-results.js";

type ToolResultPart = Extract<
  Parameters<typeof describeDemoToolResults>[0][number],
  { type: "tool-result" }
>;

const result = (toolName: string, output: ToolResultPart["output"]): ToolResultPart => ({
  type: "tool-result",
  toolCallId: `call-${toolName}`,
  toolName,
  output,
});

describe("describeDemoToolResults", () => {
  it("says one friendly sentence per successful result", () => {
    const text = describeDemoToolResults([
      result("clock", {
        type: "text",
        value: JSON.stringify({
          timeZone: "Asia/Tokyo",
          iso: "2026-11-30T06:04:05.000Z",
          local: "2026-11-30 15:04:05",
        }),
      }),
      result("save_note", {
        type: "text",
        value: JSON.stringify({ saved: "groceries", notes: 3 }),
      }),
      result("send_email", {
        type: "json",
        value: { sent: true, to: "ada@example.com", subject: "Hi" },
      }),
    ]);
    expect(text).toBe(
      'It is 15:04 in Asia/Tokyo.\nSaved your note "groceries". You have 3 notes.\nSent the email to ada@example.com.',
    );
  });

  it("says the email was not sent when the user denied it, with the reason if any", () => {
    expect(describeDemoToolResults([result("send_email", { type: "execution-denied" })])).toBe(
      "I did not send the email: you denied it.",
    );
    expect(
      describeDemoToolResults([
        result("send_email", {
          type: "error-text",
          value: "Denied by the user: the call did not run. Reason: not now",
        }),
      ]),
    ).toBe("I did not send the email: you denied it (not now).");
    expect(
      describeDemoToolResults([
        result("send_email", {
          type: "error-text",
          value: "Denied by the user: the call did not run.",
        }),
      ]),
    ).toBe("I did not send the email: you denied it.");
  });

  it("tells timeouts, policy denials and failures apart", () => {
    expect(
      describeDemoToolResults([
        result("send_email", {
          type: "error-text",
          value:
            "Denied: nobody approved the call before its approval request timed out. It did not run.",
        }),
        result("save_note", {
          type: "error-text",
          value:
            "Denied by policy: the tool save_note may not be called in this session. It did not run.",
        }),
        result("clock", {
          type: "error-text",
          value: 'Tool "clock" failed: Unknown time zone "Mars/Base"',
        }),
      ]),
    ).toBe(
      [
        "I did not send the email: nobody approved it in time.",
        "I did not save the note: the tool policy does not allow it.",
        'clock failed: Tool "clock" failed: Unknown time zone "Mars/Base"',
      ].join("\n"),
    );
  });

  it("falls back to `<tool>: <text>` for results it does not know", () => {
    expect(describeDemoToolResults([result("lookup", { type: "text", value: "42" })])).toBe(
      "lookup: 42",
    );
    expect(describeDemoToolResults([result("clock", { type: "text", value: "noon" })])).toBe(
      "clock: noon",
    );
  });
});
