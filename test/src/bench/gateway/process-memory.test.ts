import { describe, expect, it } from "vitest";
import { parseResidentBytes, readResidentBytes } from "./process-memory.js";

describe("parseResidentBytes", () => {
  it("reads VmRSS in kB as bytes", () => {
    const text = "Name:\tnode\nVmPeak:\t 999 kB\nVmRSS:\t   81234 kB\nThreads:\t11\n";
    expect(parseResidentBytes(text)).toBe(81_234 * 1024);
  });

  it("is undefined without the line (a kernel thread, another layout)", () => {
    expect(parseResidentBytes("Name:\tkthreadd\nState:\tS\n")).toBeUndefined();
  });

  it("reads this process's own size (Linux /proc)", async () => {
    const bytes = await readResidentBytes(process.pid);
    expect(bytes).toBeGreaterThan(1_000_000);
  });
});
