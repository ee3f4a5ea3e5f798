/**
 * The project's agent: `npm run dev` serves it (`troupe dev --agent ./agent.ts`),
 * `npm test` runs agent.test.ts against real servers.
 *
 * It has one tool, `convert_temperature`, and an offline model: a scripted
 * stand-in that calls the tool when a message names a temperature ("25 C",
 * "77 F") and then says the result, so everything runs without a provider key.
 * For a real model, set `model: "openai:gpt-4.1-mini"` (with OPENAI_API_KEY) or
 * `"anthropic:claude-sonnet-4-5"` (with ANTHROPIC_API_KEY); see README.md.
 */
import { defineAgent, defineTool, lastUserText, ScriptedModel } from "@troupe/agents";
import { z } from "zod";

/** What the tool returns: the temperature in both units, rounded to 0.1 degree. */
export interface Conversion {
  readonly celsius: number;
  readonly fahrenheit: number;
}

/** Converts a temperature between Celsius and Fahrenheit. Returns a {@link Conversion}. */
export const convertTemperature = defineTool({
  name: "convert_temperature",
  description: "Converts a temperature between Celsius (C) and Fahrenheit (F).",
  inputSchema: z.object({
    value: z.number().describe("The temperature to convert."),
    unit: z.enum(["C", "F"]).describe("Its unit: C for Celsius, F for Fahrenheit."),
  }),
  // A read has no side effects, so it needs no approval and may run again safely.
  effectClass: "read",
  execute: async ({ value, unit }): Promise<Conversion> => {
    const celsius = unit === "C" ? value : ((value - 32) * 5) / 9;
    const round = (degrees: number) => Math.round(degrees * 10) / 10;
    return { celsius: round(celsius), fahrenheit: round((celsius * 9) / 5 + 32) };
  },
});

/**
 * The offline model: a script instead of a provider. The last message decides
 * the step: after a tool result it answers with the result; a message like
 * "what is 25 C in F?" calls the tool; anything else gets a hint.
 */
const offlineModel = new ScriptedModel(({ messages }) => {
  const last = messages.at(-1);
  if (last?.role === "tool") {
    const part = last.content.find((candidate) => candidate.type === "tool-result");
    const output = part?.type === "tool-result" ? part.output : undefined;
    // Troupe hands the model a tool's result as JSON text.
    if (output?.type !== "text") return { text: "I could not convert that." };
    const { celsius, fahrenheit } = JSON.parse(output.value) as Conversion;
    return { text: `${celsius} °C is ${fahrenheit} °F.` };
  }
  const match = /(-?\d+(?:\.\d+)?)\s*°?\s*([CF])\b/i.exec(lastUserText(messages));
  if (match === null) return { text: 'Ask me to convert a temperature, e.g. "what is 25 C in F?"' };
  const input = { value: Number(match[1]), unit: match[2]!.toUpperCase() };
  const toolCall = {
    toolCallId: `call-${messages.length}`,
    toolName: "convert_temperature",
    input,
  };
  return { toolCalls: [toolCall] };
});

export default defineAgent({
  name: "assistant",
  instructions:
    "You are a helpful assistant. Use the convert_temperature tool to convert temperatures, " +
    "then give the result in one sentence.",
  model: offlineModel,
  tools: [convertTemperature],
});
