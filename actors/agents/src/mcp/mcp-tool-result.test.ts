import { describe, expect, it } from "vitest";
import { ToolReportedError } from "../tools/tool-call-errors.js";
import { mcpToolResultText } from "./mcp-tool-result.js";

describe("mcpToolResultText (issue #15)", () => {
  it("joins text parts", () => {
    expect(
      mcpToolResultText({
        content: [
          { type: "text", text: "line 1" },
          { type: "text", text: "line 2" },
        ],
      }),
    ).toBe("line 1\nline 2");
  });

  it("keeps images and resource links as JSON, nothing dropped", () => {
    const content = [
      { type: "text" as const, text: "a chart" },
      { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource_link" as const, uri: "file:///tmp/a.csv", name: "a.csv" },
    ];
    expect(JSON.parse(mcpToolResultText({ content }))).toEqual({ content });
  });

  it("answers structured content as JSON when there is no text", () => {
    expect(mcpToolResultText({ content: [], structuredContent: { total: 3 } })).toBe('{"total":3}');
  });

  it("throws a ToolReportedError with the text of an isError result", () => {
    const run = () =>
      mcpToolResultText({ isError: true, content: [{ type: "text", text: "disk full" }] });
    expect(run).toThrow(ToolReportedError);
    expect(run).toThrow("disk full");
  });
});
