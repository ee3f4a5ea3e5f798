import { describe, expect, it } from "vitest";
import { formatReplayReport } from "./format-replay-report.js";

describe("formatReplayReport", () => {
  it("prints a reproducing replay", () => {
    expect(
      formatReplayReport({
        actor: "counter/c1",
        reproduces: true,
        messagesReplayed: 7,
        storedGeneration: 6,
        replayedGeneration: 6,
        difference: undefined,
      }),
    ).toBe(
      [
        "actor                counter/c1",
        "reproduces           yes, the journal reproduces the stored snapshot",
        "messages replayed    7",
        "stored generation    6",
        "replayed generation  6",
      ].join("\n"),
    );
  });

  it("prints where a diverging replay first differs", () => {
    const text = formatReplayReport({
      actor: "counter/c1",
      reproduces: false,
      messagesReplayed: 3,
      storedGeneration: 3,
      replayedGeneration: 3,
      difference: { generation: 2, path: "/state/context/count", stored: 99, replayed: 2 },
    });
    expect(text).toContain("reproduces           NO, the replay differs from the stored snapshot");
    expect(text).toContain("first difference     /state/context/count at generation 2");
    expect(text).toContain("  stored             99");
    expect(text).toContain("  replayed           2");
  });

  it("names a refused step and the machine versions instead of a plain difference (issue #14)", () => {
    const text = formatReplayReport({
      actor: "ledger/l1",
      reproduces: false,
      messagesReplayed: 2,
      storedGeneration: 4,
      replayedGeneration: 1,
      difference: undefined,
      versionMismatch: { storedVersion: "2", replayVersion: "1" },
      refusal: {
        seq: 2,
        storedVersion: "2",
        replayVersion: "1",
        message: "the snapshot of ledger/l1 was written by machine version 2; …",
      },
    });
    expect(text).toContain(
      "reproduces           NO, the replay stopped: the step refused a snapshot of another machine version",
    );
    expect(text).toContain("machine versions     stored snapshot 2, replayed with 1");
    expect(text).toContain(
      "refused              at inbox sequence 2: the snapshot of ledger/l1 was written by machine version 2; …",
    );
  });

  it("says there is nothing to compare for an actor with no snapshot and no journal", () => {
    expect(
      formatReplayReport({
        actor: "counter/none",
        reproduces: true,
        messagesReplayed: 0,
        storedGeneration: undefined,
        replayedGeneration: undefined,
        difference: undefined,
      }),
    ).toContain("nothing to compare");
  });
});
