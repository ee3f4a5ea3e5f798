import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { parseToolArguments } from "./tool-arguments.js";

const clock = defineTool({
  name: "clock",
  description: "Current time.",
  inputSchema: z.object({}),
  execute: () => Promise.resolve("12:00"),
});
const weather = defineTool({
  name: "get_weather",
  description: "Weather.",
  inputSchema: z.object({ city: z.string(), days: z.number().int().default(1) }),
  execute: () => Promise.resolve("sunny"),
});

describe("parseToolArguments", () => {
  it("counts an empty or blank argument text as {} for a tool without parameters", () => {
    expect(parseToolArguments(clock, "")).toEqual({ ok: true, input: {} });
    expect(parseToolArguments(clock, "  \n")).toEqual({ ok: true, input: {} });
  });

  it("returns the input after the schema, defaults applied", () => {
    expect(parseToolArguments(weather, '{"city":"Oslo"}')).toEqual({
      ok: true,
      input: { city: "Oslo", days: 1 },
    });
  });

  it("explains invalid JSON and quotes what was received", () => {
    const result = parseToolArguments(weather, '{"city": "Oslo"');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(
      /^Invalid arguments for tool "get_weather": they are not valid JSON \(/,
    );
    expect(result.message).toContain('Received: "{\\"city\\": \\"Oslo\\"".');
  });

  it("lists the zod issues of a schema mismatch, with their paths", () => {
    const result = parseToolArguments(weather, '{"city": 7, "days": 1.5}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('Invalid arguments for tool "get_weather":\n');
    expect(result.message).toContain("expected string, received number\n  → at city");
    expect(result.message).toContain("→ at days");
  });

  it("refuses an empty text for a tool with required parameters and JSON that is not an object", () => {
    expect(parseToolArguments(weather, "").ok).toBe(false);
    expect(parseToolArguments(clock, "[1]").ok).toBe(false);
  });

  it("quotes at most 500 characters of long arguments", () => {
    const result = parseToolArguments(weather, `{"city": ${"9".repeat(2000)}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain("(first 500 of 2009 characters)");
  });
});
