import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "./define-agent.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import {
  MAX_TOOL_RESULT_BYTES,
  defineTool,
  isToolDefinition,
  InvalidToolError,
  toToolRecord,
} from "@troupe/tools/internal";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather of a city.",
  inputSchema: z.object({ city: z.string(), unit: z.enum(["C", "F"]).default("C") }),
  effectClass: "read",
  // `city` and `unit` are typed from the schema: this line would not compile otherwise.
  execute: ({ city, unit }) => Promise.resolve(`${city.toUpperCase()} 21 °${unit}`),
});

describe("defineTool", () => {
  it("fills in the defaults: unclassified, 30 000 ms, 16 384 bytes; the result is frozen and branded", () => {
    const clock = defineTool({
      name: "clock",
      description: "Current time.",
      inputSchema: z.object({}),
      execute: () => Promise.resolve("12:00"),
    });
    expect(clock).toMatchObject({
      name: "clock",
      description: "Current time.",
      effectClass: "unclassified",
      timeoutMs: 30_000,
      maxResultBytes: 16_384,
    });
    expect(Object.isFrozen(clock)).toBe(true);
    expect(isToolDefinition(clock)).toBe(true);
    expect(isToolDefinition({ name: "clock", description: "Current time." })).toBe(false);
  });

  it("passes the validated input and the context to execute", async () => {
    const signal = new AbortController().signal;
    const input = weather.inputSchema.parse({ city: "Oslo" });
    const context = {
      sessionId: "s",
      runId: "r",
      toolCallId: "c",
      idempotencyKey: "s/r/c",
      signal,
      attempt: 1,
    };
    expect(await weather.execute(input, context)).toBe("OSLO 21 °C");
  });

  it("lists every problem of a bad tool at once", () => {
    let error: unknown;
    try {
      defineTool({
        name: "get weather",
        description: "",
        inputSchema: z.string() as unknown as z.ZodObject,
        effectClass: "write" as "read",
        timeoutMs: 0,
        maxResultBytes: 1.5,
        execute: undefined as unknown as () => Promise<unknown>,
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidToolError);
    const invalid = error as InvalidToolError;
    expect(invalid.code).toBe("invalid_agent");
    expect(invalid.issues.map((issue) => issue.path.join("."))).toEqual([
      "name",
      "description",
      "effectClass",
      "timeoutMs",
      "maxResultBytes",
      "inputSchema",
      "execute",
    ]);
    expect(invalid.message).toContain('Invalid tool "get weather": name: must be 1 to 64');
  });

  it("refuses a maxResultBytes above what fits in a message, naming the limit (issue #11)", () => {
    const options = {
      name: "dump",
      description: "A large result.",
      inputSchema: z.object({}),
      execute: () => Promise.resolve("x"),
    };
    let error: unknown;
    try {
      defineTool({ ...options, maxResultBytes: 8 * 1024 * 1024 });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidToolError);
    const invalid = error as InvalidToolError;
    expect(invalid.code).toBe("invalid_agent");
    expect(invalid.issues.map((issue) => issue.path.join("."))).toEqual(["maxResultBytes"]);
    expect(invalid.message).toContain(
      'Invalid tool "dump": maxResultBytes: must be at most 524288 bytes (MAX_TOOL_RESULT_BYTES, 512 KiB)',
    );
    expect(MAX_TOOL_RESULT_BYTES).toBe(524_288);
    expect(defineTool({ ...options, maxResultBytes: MAX_TOOL_RESULT_BYTES }).maxResultBytes).toBe(
      MAX_TOOL_RESULT_BYTES,
    );
  });
});

describe("agent tools", () => {
  it("accepts a list or a record keyed by name and keys both by tool name", () => {
    const fromList = defineAgent({ name: "a", instructions: "x", tools: [weather] });
    const fromRecord = defineAgent({
      name: "a",
      instructions: "x",
      tools: { get_weather: weather },
    });
    expect(fromList.tools).toEqual({ get_weather: weather });
    expect(fromRecord.tools["get_weather"]).toBe(weather);
    expect(Object.isFrozen(fromList.tools)).toBe(true);
  });

  it("refuses values that are not tools, duplicate names and keys that are not the tool's name", () => {
    expect(toToolRecord([weather, weather, { name: "x" }]).issues).toEqual([
      { path: ["tools", 1], message: 'two tools are named "get_weather"; names must be unique' },
      { path: ["tools", 2], message: "must be a tool made with defineTool" },
    ]);
    expect(toToolRecord({ weather }).issues).toEqual([
      { path: ["tools", "weather"], message: `the key must be the tool's name ("get_weather")` },
    ]);
    expect(() => defineAgent({ name: "a", instructions: "x", tools: { weather } })).toThrow(
      InvalidAgentError,
    );
  });
});
