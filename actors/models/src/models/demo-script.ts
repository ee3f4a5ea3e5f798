import type { LanguageModelV4Prompt, LanguageModelV4ToolResultPart } from "@ai-sdk/provider";
import type { ScriptedRequest, ScriptedStep } from "./scripted-step.js";

/** Delay between chunks of the `/slow` demo answer, in ms, when none is given. */
export const DEMO_SLOW_CHUNK_DELAY_MS = 200;

const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

/**
 * The text of the last user message of a prompt (its text parts joined), or
 * `""` when there is none.
 *
 * @param messages - a provider prompt.
 * @example lastUserText([{ role: "user", content: [{ type: "text", text: "hi" }] }]) // "hi"
 */
export function lastUserText(messages: LanguageModelV4Prompt): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "user") continue;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  }
  return "";
}

/** What the demo model answers a compaction's summarising request. */
export const DEMO_SUMMARY = "Summary: the user sent messages and the demo agent answered each.";

/**
 * The script behind the `scripted` / `scripted:demo` model: it answers from the
 * last user message only, so the same conversation gets the same answer in any
 * process (a model call re-run after a host restart streams the same text).
 *
 * | last user message     | answer                                                                |
 * | --------------------- | --------------------------------------------------------------------- |
 * | `hello`, `hi`, `hey`  | `Hello! I am the Troupe demo agent. Ask me anything.`                 |
 * | `/slow [ms]`          | a 30-word answer, chunks `ms` apart (default 200 ms)                  |
 * | `/think <text>`       | reasoning `The user wrote N words.`, then `You said: <text>`          |
 * | `/flaky <text>`       | the first try fails with a retryable 503; its retries echo `<text>`   |
 * | `/fail`               | a non-retryable 400 `the demo model refuses this request`             |
 * | `/tool <name> [json]` | a call of tool `<name>` with arguments `json` (one call per such line) |
 * | anything else         | `You said: <message>`                                                 |
 *
 * A compaction's summarising request (`troupe.compaction`) gets
 * {@link DEMO_SUMMARY}.
 *
 * When the prompt ends with tool results, the answer is `Tool results:`
 * followed by one line per result, `<toolName>: <text>` or `<toolName>
 * (error): <text>` (see {@link describeToolResults}). Tool call ids are
 * `call-<prompt length>-<n>`, the same for the same conversation in any
 * process. `/tool` when no tools are offered answers that it cannot call it.
 *
 * The try comes from `providerOptions.troupe.retry` (set by the model-call
 * handler), 1 when absent. Usage is the scripted model's estimate.
 *
 * @param request - the call to answer.
 * @returns the step to play.
 */
export function demoScript(request: ScriptedRequest): ScriptedStep {
  // A compaction's summarising call (docs/capabilities/compaction.md): a short summary.
  if (request.troupe?.["compaction"] === true) return { text: DEMO_SUMMARY };
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { text: describeToolResults(last.content) };
  const message = lastUserText(request.messages).trim();
  const [command = "", ...words] = message.split(/\s+/);
  const rest = words.join(" ");
  switch (command.toLowerCase()) {
    case "hello":
    case "hi":
    case "hey":
      return { text: "Hello! I am the Troupe demo agent. Ask me anything." };
    case "/slow": {
      const delayMs = Number.parseInt(rest, 10);
      return {
        text: SLOW_ANSWER,
        chunkDelayMs:
          Number.isInteger(delayMs) && delayMs >= 0 ? delayMs : DEMO_SLOW_CHUNK_DELAY_MS,
      };
    }
    case "/think":
      return { reasoning: `The user wrote ${words.length} words.`, text: `You said: ${rest}` };
    case "/flaky":
      return retryOf(request) <= 1
        ? { error: { message: "the demo model is overloaded", retryable: true, statusCode: 503 } }
        : { text: `You said: ${rest}` };
    case "/tool":
      return toolStep(request, message);
    case "/fail":
      return {
        error: {
          message: "the demo model refuses this request",
          retryable: false,
          statusCode: 400,
        },
      };
    default:
      return { text: `You said: ${message}` };
  }
}

function retryOf(request: ScriptedRequest): number {
  const retry = request.troupe?.["retry"];
  return typeof retry === "number" ? retry : 1;
}

/** The `/tool <name> [json]` lines of a message as tool calls; text when no tools are offered. */
function toolStep(request: ScriptedRequest, message: string): ScriptedStep {
  const calls = message
    .split("\n")
    .map((line) => /^\/tool\s+(\S+)\s*(.*)$/i.exec(line.trim()))
    .filter((match) => match !== null)
    .map(([, toolName = "", input = ""], index) => ({
      toolCallId: `call-${request.messages.length}-${index + 1}`,
      toolName,
      input: input.trim(),
    }));
  if (request.toolNames.length === 0 || calls.length === 0) {
    return { text: `I cannot call ${calls[0]?.toolName ?? "a tool"}: no tools are offered to me.` };
  }
  return { toolCalls: calls };
}

/**
 * The demo's answer to tool results: `Tool results:` and one line per result,
 * `<toolName>: <text>` (`(error)` after the name for error outputs, JSON for
 * JSON outputs).
 *
 * @param parts - the content of the prompt's last (tool) message.
 * @example describeToolResults([{ type: "tool-result", toolCallId: "c1", toolName: "clock", output: { type: "text", value: "12:00" } }])
 * // "Tool results:\nclock: 12:00"
 */
export function describeToolResults(
  parts: readonly (LanguageModelV4ToolResultPart | { readonly type: string })[],
): string {
  const lines = parts.flatMap((part) => {
    if (part.type !== "tool-result") return [];
    const { toolName, output } = part as LanguageModelV4ToolResultPart;
    switch (output.type) {
      case "text":
        return [`${toolName}: ${output.value}`];
      case "error-text":
        return [`${toolName} (error): ${output.value}`];
      case "json":
        return [`${toolName}: ${JSON.stringify(output.value)}`];
      case "error-json":
        return [`${toolName} (error): ${JSON.stringify(output.value)}`];
      case "execution-denied":
        return [`${toolName} (denied)${output.reason === undefined ? "" : `: ${output.reason}`}`];
      default:
        return [`${toolName}: (${output.type} output)`];
    }
  });
  return ["Tool results:", ...lines].join("\n");
}
