import { defineAgent } from "@troupe/agents";
import type { TroupeHistory } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { agentsOfHistory, describeExport } from "./history-export-summary.js";

describe("history export summary (issue #14)", () => {
  it("names each agent and its subagents' agents as hosts register them, with declared versions", () => {
    const helper = defineAgent({ name: "helper", instructions: "Help.", version: "7" });
    const main = defineAgent({
      name: "main",
      instructions: "Delegate.",
      subagents: { aide: { description: "An aide.", agent: helper } },
    });
    expect(agentsOfHistory([main])).toEqual([
      { name: "main" },
      { name: "main--aide", version: "7" },
    ]);
  });

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
