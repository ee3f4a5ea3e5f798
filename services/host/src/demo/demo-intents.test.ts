import { describe, expect, it } from "vitest";
import { parseDemoIntent, timeZoneIn } from "./demo-intents.js";

describe("parseDemoIntent", () => {
  it("reads a question about the time in a known city as a clock call in its zone", () => {
    expect(parseDemoIntent("what time is it in Tokyo?")).toEqual({
      kind: "clock",
      timeZone: "Asia/Tokyo",
    });
    expect(parseDemoIntent("Time in New York please")).toEqual({
      kind: "clock",
      timeZone: "America/New_York",
    });
    expect(parseDemoIntent("check the clock in sydney")).toEqual({
      kind: "clock",
      timeZone: "Australia/Sydney",
    });
  });

  it("uses an IANA zone named in the message, else UTC", () => {
    expect(parseDemoIntent("what time is it in Europe/Berlin?")).toEqual({
      kind: "clock",
      timeZone: "Europe/Berlin",
    });
    expect(parseDemoIntent("what time is it?")).toEqual({ kind: "clock", timeZone: "UTC" });
    expect(timeZoneIn("London calling")).toBe("Europe/London");
    expect(timeZoneIn("Paris")).toBe("Europe/Paris");
  });

  it("reads note and remember as a note titled by its first five words", () => {
    expect(parseDemoIntent("note buy oat milk on the way home")).toEqual({
      kind: "note",
      title: "buy oat milk on the…",
      text: "buy oat milk on the way home",
    });
    expect(parseDemoIntent("Remember that the wifi password is hunter2.")).toEqual({
      kind: "note",
      title: "the wifi password is hunter2",
      text: "the wifi password is hunter2.",
    });
    expect(parseDemoIntent("note: call Bob")).toEqual({
      kind: "note",
      title: "call Bob",
      text: "call Bob",
    });
  });

  it("reads email and send an email to as an email with a subject from the first words", () => {
    expect(parseDemoIntent("email ada@example.com about the launch on Friday")).toEqual({
      kind: "email",
      to: "ada@example.com",
      subject: "The launch on Friday",
      body: "about the launch on Friday",
    });
    expect(
      parseDemoIntent("send an email to bob@example.org, saying the build is green again today"),
    ).toEqual({
      kind: "email",
      to: "bob@example.org",
      subject: "The build is green again today",
      body: "the build is green again today",
    });
    expect(parseDemoIntent("Email ada@example.com")).toEqual({
      kind: "email",
      to: "ada@example.com",
      subject: "Hello from Troupe",
      body: "Hello! This is a message from the Troupe demo agent.",
    });
  });

  it("reads ask the researcher as a task for the researcher subagent, before the time (issue #14)", () => {
    expect(parseDemoIntent("ask the researcher what time it is in Tokyo")).toEqual({
      kind: "research",
      task: "what time it is in Tokyo",
    });
    expect(parseDemoIntent("Please ask researcher to tell me the time in Paris")).toEqual({
      kind: "research",
      task: "the time in Paris",
    });
    expect(parseDemoIntent("ask the researcher")).toBeUndefined();
  });

  it("prefers email and note over a mention of the time", () => {
    expect(parseDemoIntent("email ada@example.com the time of the meeting")?.kind).toBe("email");
    expect(parseDemoIntent("remember the time of the meeting")?.kind).toBe("note");
  });

  it("reads help, and leaves slash commands and other text to the demo script", () => {
    expect(parseDemoIntent("help")).toEqual({ kind: "help" });
    expect(parseDemoIntent("/help")).toEqual({ kind: "help" });
    expect(parseDemoIntent("What can you do?")).toEqual({ kind: "help" });
    expect(parseDemoIntent("help me with this")).toBeUndefined();
    expect(parseDemoIntent("/tool clock {}")).toBeUndefined();
    expect(parseDemoIntent("/think about time")).toBeUndefined();
    expect(parseDemoIntent("hello")).toBeUndefined();
    expect(parseDemoIntent("notes are nice")).toBeUndefined();
    expect(parseDemoIntent("note")).toBeUndefined();
  });
});
