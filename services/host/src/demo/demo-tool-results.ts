import type { ScriptedRequest } from "@troupe/agents";

/** A part of a tool message of the prompt, as the scripted model sees it. */
type ToolMessagePart = Extract<
  ScriptedRequest["messages"][number],
  { role: "tool" }
>["content"][number];
/** A tool result of the prompt (the AI SDK's `LanguageModelV4ToolResultPart`). */
type ToolResultPart = Extract<ToolMessagePart, { type: "tool-result" }>;

/** What the demo agent says it did not do, by tool name. */
const NOT_DONE: Readonly<Record<string, string>> = {
  clock: "I did not read the clock",
  save_note: "I did not save the note",
  send_email: "I did not send the email",
  researcher: "I did not ask the researcher",
};

/**
 * The demo agent's answer once tool results are in: one friendly sentence per
 * result, joined by newlines.
 *
 * | result                                     | sentence                                              |
 * | ------------------------------------------ | ----------------------------------------------------- |
 * | `clock` `{ timeZone, local }`              | `It is 15:04 in Asia/Tokyo.`                          |
 * | `save_note` `{ saved, notes }`             | `Saved your note "<title>". You have 3 notes.`        |
 * | `send_email` `{ to }`                      | `Sent the email to <to>.`                             |
 * | `researcher` (the subagent's answer text)  | `The researcher says: <answer>`                       |
 * | denied by the user (`execution-denied`, or the tool call actor's `Denied by the user: …` text) | `I did not send the email: you denied it.` (`… (<reason>)` with a reason) |
 * | approval timed out                         | `I did not send the email: nobody approved it in time.` |
 * | denied by policy                           | `I did not send the email: the tool policy does not allow it.` |
 * | any other error                            | `<tool> failed: <text>`                               |
 * | anything else                              | `<tool>: <text>`                                      |
 *
 * @param parts - the content of the prompt's last (tool) message; parts that are not tool results are skipped.
 * @returns the answer text.
 * @example describeDemoToolResults([{ type: "tool-result", toolCallId: "c", toolName: "send_email", output: { type: "execution-denied" } }])
 * // "I did not send the email: you denied it."
 */
export function describeDemoToolResults(parts: readonly ToolMessagePart[]): string {
  return parts
    .flatMap((part) => (part.type === "tool-result" ? [describeResult(part)] : []))
    .join("\n");
}

function describeResult({ toolName, output }: ToolResultPart): string {
  const notDone = NOT_DONE[toolName] ?? `I did not run ${toolName}`;
  switch (output.type) {
    case "execution-denied":
      return `${notDone}: you denied it${output.reason === undefined || output.reason === "" ? "" : ` (${output.reason})`}.`;
    case "text":
      if (toolName === "researcher") return `The researcher says: ${output.value}`;
      return describeSuccess(toolName, parseJson(output.value)) ?? `${toolName}: ${output.value}`;
    case "json":
      return (
        describeSuccess(toolName, output.value) ?? `${toolName}: ${JSON.stringify(output.value)}`
      );
    case "error-text":
      return describeFailure(toolName, notDone, output.value);
    case "error-json":
      return describeFailure(toolName, notDone, JSON.stringify(output.value));
    default:
      return `${toolName}: (${output.type} output)`;
  }
}

function describeSuccess(toolName: string, value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const result = value as Record<string, unknown>;
  switch (toolName) {
    case "clock": {
      const time =
        typeof result["local"] === "string" ? /\b(\d{2}:\d{2})/.exec(result["local"]) : null;
      return time === null || typeof result["timeZone"] !== "string"
        ? undefined
        : `It is ${time[1]} in ${result["timeZone"]}.`;
    }
    case "save_note":
      return typeof result["saved"] !== "string"
        ? undefined
        : `Saved your note "${result["saved"]}".${typeof result["notes"] === "number" ? ` You have ${result["notes"]} ${result["notes"] === 1 ? "note" : "notes"}.` : ""}`;
    case "send_email":
      return typeof result["to"] !== "string" ? undefined : `Sent the email to ${result["to"]}.`;
    default:
      return undefined;
  }
}

/** Texts of the tool call actor (`@troupe/machines`, `tool-call-steps.ts`) for calls that never ran. */
function describeFailure(toolName: string, notDone: string, text: string): string {
  const byUser = /^Denied by the user: the call did not run\.(?: Reason: ([\s\S]*))?$/.exec(text);
  if (byUser !== null) {
    return `${notDone}: you denied it${byUser[1] === undefined ? "" : ` (${byUser[1]})`}.`;
  }
  if (text.startsWith("Denied: nobody approved")) return `${notDone}: nobody approved it in time.`;
  if (text.startsWith("Denied by policy")) return `${notDone}: the tool policy does not allow it.`;
  return `${toolName} failed: ${text}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
