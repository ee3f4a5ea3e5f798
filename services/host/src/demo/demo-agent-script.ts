import { demoScript, lastUserText, type ScriptedRequest, type ScriptedStep } from "@troupe/agents";
import { parseDemoIntent, type DemoIntent } from "./demo-intents.js";
import { describeDemoToolResults } from "./demo-tool-results.js";

/** Name of the demo agent's subagent (a tool `{ task }` for the demo agent's model). */
export const RESEARCHER_SUBAGENT = "researcher";

/** The demo agent's answer to `help`. */
export const DEMO_HELP_TEXT = [
  "I am the Troupe demo agent. Try:",
  "- what time is it in Tokyo?  (also London, New York, Paris, Sydney or any IANA zone)",
  "- ask the researcher what time it is in Tokyo  (a subagent with only the clock; it answers back)",
  "- note buy oat milk on the way home  (or: remember that …)",
  "- email ada@example.com about the launch on Friday  (asks for your approval first; nothing is really sent)",
  '- /tool ask_user {"question":"Which city?"}  (a question for you; answer it in the chat or with troupe answer)',
  "- /slow, /think <text>, /flaky <text>, /fail, /tool <name> <json>",
].join("\n");

/**
 * The script of the demo agent's scripted model: plain English to tool calls,
 * deterministically (a call re-run in another process asks for the same tools).
 *
 * - The prompt ends with tool results → one sentence per result
 *   ({@link describeDemoToolResults}).
 * - The last user message is a {@link DemoIntent} (see `parseDemoIntent`):
 *   `help` → {@link DEMO_HELP_TEXT}; `clock` / `note` / `email` / `research` →
 *   one call of `clock` / `save_note` / `send_email` / the `researcher`
 *   subagent (`{ task }`), when that tool is offered.
 * - Anything else, or a tool that is not offered → `demoScript` (`hello`,
 *   `/slow`, `/think`, `/flaky`, `/fail`, `/tool <name> <json>`, echo).
 *
 * Tool call ids are `call-<prompt length>-1`, like `demoScript`'s.
 *
 * @param request - the call to answer.
 * @returns the step to play.
 * @example demoAgentScript(requestFor("what time is it in Tokyo?")).toolCalls
 * // [{ toolCallId: "call-2-1", toolName: "clock", input: { timeZone: "Asia/Tokyo" } }]
 */
export function demoAgentScript(request: ScriptedRequest): ScriptedStep {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { text: describeDemoToolResults(last.content) };
  const intent = parseDemoIntent(lastUserText(request.messages));
  if (intent === undefined) return demoScript(request);
  if (intent.kind === "help") return { text: DEMO_HELP_TEXT };
  const [toolName, input] = toolCallOf(intent);
  if (!request.toolNames.includes(toolName)) return demoScript(request);
  return { toolCalls: [{ toolCallId: `call-${request.messages.length}-1`, toolName, input }] };
}

function toolCallOf(
  intent: Exclude<DemoIntent, { kind: "help" }>,
): [string, Record<string, unknown>] {
  switch (intent.kind) {
    case "clock":
      return ["clock", { timeZone: intent.timeZone }];
    case "note":
      return ["save_note", { title: intent.title, text: intent.text }];
    case "email":
      return ["send_email", { to: intent.to, subject: intent.subject, body: intent.body }];
    case "research":
      return [RESEARCHER_SUBAGENT, { task: intent.task }];
  }
}
