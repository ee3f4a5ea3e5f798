import type { TroupeHistory } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { describeExport } from "./history-export-summary.js";

describe("history export summary (issue #14)", () => {
  it("says how many actors, messages and generations were written where", () => {
    const history = {
      actors: [
        { address: "session/s1", journal: [{}, {}], generations: [{}] },
        { address: "run/s1", journal: [{}], generations: [{}] },
      ],
    } as unknown as TroupeHistory;
    expect(describeExport(history, "out.json", 1234)).toBe(
      "wrote 2 actors (session/s1: 2 messages, 1 generation; run/s1: 1 message, 1 generation) to out.json (1234 bytes)",
    );
  });
});
