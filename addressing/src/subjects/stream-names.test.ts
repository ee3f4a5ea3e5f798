import { describe, expect, it } from "vitest";
import { streamNames } from "./stream-names.js";

describe("streamNames", () => {
  it("upper-cases the deployment prefix and replaces what a stream name cannot hold", () => {
    expect(streamNames("troupe")).toEqual({
      inbox: "TROUPE_INBOX",
      events: "TROUPE_EVENTS",
      deltas: "TROUPE_DELTAS",
      deadLetter: "TROUPE_DEADLETTER",
      transcript: "TROUPE_TRANSCRIPT",
      claims: "TROUPE_CLAIMS",
    });
    expect(streamNames("team-a.b").events).toBe("TEAM-A_B_EVENTS");
  });
});
