import { describe, expect, it } from "vitest";
import { labelledLines, textTable } from "./text-table.js";

describe("textTable", () => {
  it("pads columns to their widest cell, numbers right-aligned, two spaces apart", () => {
    const text = textTable(
      [
        { heading: "shard", align: "right" },
        { heading: "owner" },
        { heading: "lag", align: "right" },
      ],
      [
        ["0", "host-a", "12"],
        ["10", "host-long-name", "0"],
      ],
    );
    expect(text.split("\n")).toEqual([
      "shard  owner           lag",
      "    0  host-a           12",
      "   10  host-long-name    0",
    ]);
  });

  it("treats missing cells as empty and trims trailing spaces", () => {
    expect(textTable([{ heading: "a" }, { heading: "bb" }], [["xyz"]])).toBe("a    bb\nxyz");
  });
});

describe("labelledLines", () => {
  it("aligns values after the longest label, with an optional indent", () => {
    expect(
      labelledLines(
        [
          ["shard", "7"],
          ["last token", "4"],
        ],
        2,
      ),
    ).toBe("  shard       7\n  last token  4");
  });
});
