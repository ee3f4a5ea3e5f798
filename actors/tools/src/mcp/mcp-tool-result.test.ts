import { describe, expect, it } from "vitest";
import { ToolReportedError } from "../tools/tool-call-errors.js";
import { mcpToolResult, mcpToolResultText } from "./mcp-tool-result.js";

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

describe("mcpToolResult (issue #19)", () => {
  it("turns image parts into tool media for the media store, keeping the other parts", () => {
    const link = { type: "resource_link" as const, uri: "file:///tmp/a.csv", name: "a.csv" };
    expect(
      mcpToolResult({
        content: [
          { type: "text", text: "a chart" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "Image/PNG" },
          link,
        ],
        structuredContent: { month: "May" },
      }),
    ).toEqual({
      content: [
        { type: "text", text: "a chart" },
        { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
        link,
      ],
      structuredContent: { month: "May" },
    });
  });

  it("answers a result without images as mcpToolResultText does", () => {
    const content = [{ type: "audio" as const, data: "AAAA", mimeType: "audio/wav" }];
    expect(mcpToolResult({ content })).toBe(mcpToolResultText({ content }));
    expect(mcpToolResult({ content: [{ type: "text", text: "ok" }] })).toBe("ok");
  });

  it("throws a ToolReportedError for an isError result, images or not", () => {
    const run = () =>
      mcpToolResult({
        isError: true,
        content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
      });
    expect(run).toThrow(ToolReportedError);
  });
});
