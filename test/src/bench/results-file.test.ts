import { describe, expect, it } from "vitest";
import { replaceResultSection } from "./results-file.js";

describe("replaceResultSection", () => {
  it("replaces a document without markers whole, with the other section not run yet", () => {
    const written = replaceResultSection("# Old layout\n\n| a |\n", "agent-turn", "## Turns\n\nT1");
    expect(written).not.toContain("Old layout");
    expect(written).toContain(
      "<!-- actor-host benchmark: start -->\n\n_Not run yet (`actor-host` benchmark)._\n\n<!-- actor-host benchmark: end -->",
    );
    expect(written).toContain(
      "<!-- agent-turn benchmark: start -->\n\n## Turns\n\nT1\n\n<!-- agent-turn benchmark: end -->",
    );
    expect(written.endsWith("end -->\n")).toBe(true);
  });

  it("keeps the other sections and replaces only the one written, in a fixed order", () => {
    const first = replaceResultSection("", "agent-turn", "## Turns\n\nT1");
    const second = replaceResultSection(first, "gateway", "## Gateway\n\nG1");
    const third = replaceResultSection(second, "actor-host", "## Host\n\nH1\n");
    const fourth = replaceResultSection(third, "agent-turn", "## Turns\n\nT2");
    expect(fourth).toContain("H1");
    expect(fourth).toContain("T2");
    expect(fourth).toContain("G1");
    expect(fourth).not.toContain("T1");
    expect(fourth.indexOf("H1")).toBeLessThan(fourth.indexOf("T2"));
    expect(fourth.indexOf("T2")).toBeLessThan(fourth.indexOf("G1"));
    expect(replaceResultSection(fourth, "agent-turn", "## Turns\n\nT2")).toBe(fourth);
  });
});
