import { describe, expect, it } from "vitest";
import { InMemoryTranscriptReader, readTranscriptEntries } from "./transcript-reader.js";

const user = (text: string) => ({ role: "user" as const, text, messageId: text });
const signal = () => AbortSignal.timeout(1000);

describe("reading a forked transcript (issue #19)", () => {
  const logs = new InMemoryTranscriptReader();
  logs.append("a", user("a0"), user("a1"), user("a2"), user("a3"), user("a4"));
  logs.appendAt("b", 3, user("b3"), user("b4"));
  logs.appendAt("c", 4, user("c4"));

  it("a fork reads the shared prefix from its source and the rest from its own log", async () => {
    const entries = await readTranscriptEntries(
      logs,
      { sessionId: "b", transcriptLength: 5, transcriptBase: [{ sessionId: "a", length: 3 }] },
      signal(),
    );
    expect(entries?.map((entry) => ("text" in entry ? entry.text : entry.role))).toEqual([
      "a0",
      "a1",
      "a2",
      "b3",
      "b4",
    ]);
  });

  it("a fork of a fork reads each segment from its own session", async () => {
    const base = [
      { sessionId: "a", length: 3 },
      { sessionId: "b", length: 4 },
    ];
    const entries = await readTranscriptEntries(
      logs,
      { sessionId: "c", transcriptLength: 5, transcriptBase: base },
      signal(),
    );
    expect(entries?.map((entry) => ("text" in entry ? entry.text : entry.role))).toEqual([
      "a0",
      "a1",
      "a2",
      "b3",
      "c4",
    ]);
  });

  it("a missing entry of the fork's own log fails the call as retryable", async () => {
    await expect(
      readTranscriptEntries(
        logs,
        { sessionId: "c", transcriptLength: 6, transcriptBase: [{ sessionId: "a", length: 4 }] },
        signal(),
      ),
    ).rejects.toMatchObject({ code: "effect_failed", retryable: true });
  });
});
