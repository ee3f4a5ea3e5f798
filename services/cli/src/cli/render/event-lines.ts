import { formatValue } from "./format-value.js";
import type { KnownEvent } from "./known-event.js";
import type { RenderColors } from "./render-colors.js";

/** What {@link eventLines} needs beyond the event. */
export interface EventLinesContext {
  readonly colors: RenderColors;
  /** The session being rendered: approvals and questions name it in their commands. */
  readonly sessionId: string;
  /** The tool's name, when an earlier event of the call named it. */
  toolName(toolCallId: string): string | undefined;
  /** The call's arguments, when known (from its `tool.approval_requested`); `undefined` otherwise. */
  toolArguments(toolCallId: string): unknown;
  /** The subagent's agent name, when its `subagent.started` named it. */
  subagentName(subagent: string): string | undefined;
}

/**
 * The lines (without newlines) of one event that the renderer shows as whole
 * lines — every type except `run.delta`, `run.completed` and `run.cancelled`,
 * which depend on the text streamed before them. Types without anything worth
 * showing give no lines.
 *
 * | event                     | line                                                                 |
 * | ------------------------- | -------------------------------------------------------------------- |
 * | `session.created`         | dim `· session <id> created (agent <agent>)`                         |
 * | `session.forked`          | dim `· forked from <id>: <n> entries shared (after run <runId>)`     |
 * | `session.idle` / `.closed`| dim `· idle` / `· session <id> closed`                               |
 * | `message.accepted`        | dim `· <type> accepted (run <runId>, queued)`                        |
 * | `message.duplicate`       | dim `· duplicate <type> ignored`                                     |
 * | `message.rejected`        | red `✗ <type> rejected (<code>): <reason>`                           |
 * | `command.settled`         | none when applied, else dim `· <command>: <verdict> (<reason>)`      |
 * | `run.started` / `.failed` | dim `▶ run <runId> (<agent>)` / red `✗ run <runId> failed (<code>): <message>` |
 * | `tool.started`            | `⚙ <tool> <arguments, when known>` (`(attempt n)` after the first)   |
 * | `tool.completed`          | green `✓ <tool> → <output, ≤ 200 characters>`                        |
 * | `tool.failed`             | red `✗ <tool> failed (<code>): <message>`; yellow `✗ <tool> denied: …` |
 * | `tool.outcome_unknown`    | yellow `? <tool> outcome unknown: <reason>`                          |
 * | `tool.approval_requested` | bold yellow `⏸ <tool> <arguments> needs your approval`, then the `troupe approve` / `troupe deny` commands |
 * | `tool.approval_settled`   | `✓ <tool> approved`, yellow `✗ <tool> denied` / `approval timed out` |
 * | `question.asked`          | bold magenta `? <text>`, the choices, the `troupe answer` command    |
 * | `question.answered`       | dim `↳ answered: <text>`                                             |
 * | `subagent.started` / `.completed` | cyan `⇢ <agent>: <task>` / `⇠ <agent>: <answer>`             |
 * | `budget.warning`          | yellow `⚠ <scope> budget <scopeId>: <spent> of <limit> <unit> spent` |
 *
 * @param event - the event.
 * @param context - see {@link EventLinesContext}.
 * @returns the lines, possibly none.
 */
export function eventLines(event: KnownEvent, context: EventLinesContext): string[] {
  const c = context.colors;
  switch (event.type) {
    case "session.created":
      return [
        c.dim(
          `· session ${event.payload.sessionId} created${suffix(" (agent ", event.payload.agent, ")")}`,
        ),
      ];
    case "session.idle":
      return [c.dim("· idle")];
    case "session.closed":
      return [c.dim(`· session ${event.payload.sessionId} closed`)];
    case "session.forked":
      return [
        c.dim(
          `· forked from ${event.payload.from}: ${event.payload.transcriptLength} entries shared${suffix(" (after run ", event.payload.runId, ")")}`,
        ),
      ];
    case "message.accepted": {
      const { type, runId, queued } = event.payload;
      const details = [
        runId === undefined ? "" : `run ${runId}`,
        queued === true ? "queued" : "",
      ].filter(Boolean);
      return [c.dim(`· ${type} accepted${details.length === 0 ? "" : ` (${details.join(", ")})`}`)];
    }
    case "message.duplicate":
      return [c.dim(`· duplicate ${event.payload.type ?? "message"} ignored`)];
    case "message.rejected": {
      const { type, code, reason } = event.payload;
      return [c.red(`✗ ${type ?? "message"} rejected (${code}): ${reason}`)];
    }
    case "command.settled": {
      // An applied command shows through its effect (approval, cancel, …).
      const { command, verdict, reason } = event.payload;
      if (verdict === "applied") return [];
      return [c.dim(`· ${command}: ${verdict.replaceAll("_", " ")}${suffix(" (", reason, ")")}`)];
    }
    case "run.started":
      return [c.dim(`▶ run ${event.payload.runId}${suffix(" (", event.payload.agent, ")")}`)];
    case "run.failed": {
      const { runId, code, message } = event.payload;
      return [c.red(`✗ run ${runId} failed (${code}): ${message}`)];
    }
    case "run.model_fallback": {
      // The model in use is unavailable; the run goes on with the next one.
      const { runId, from, to, code, statusCode } = event.payload;
      const why = statusCode === undefined ? code : `${code}, HTTP ${statusCode}`;
      return [c.yellow(`↪ run ${runId}: ${from} unavailable (${why}), falling back to ${to}`)];
    }
    case "tool.started": {
      const { tool, attempt } = event.payload;
      const input = context.toolArguments(event.payload.toolCallId);
      const again = attempt !== undefined && attempt > 1 ? c.dim(` (attempt ${attempt})`) : "";
      return [
        `${c.cyan("⚙")} ${c.bold(tool)}${input === undefined ? "" : ` ${formatValue(input)}`}${again}`,
      ];
    }
    case "tool.progress": {
      const { tool, progress, total, message } = event.payload;
      const amount = total === undefined ? `${progress}` : `${progress}/${total}`;
      return [c.dim(`… ${tool} ${amount}${suffix(" ", message, "")}`)];
    }
    case "tool.completed": {
      const { tool, output, content, truncated } = event.payload;
      const shown = formatValue(output === undefined ? (content ?? "") : output);
      return [
        `${c.green("✓")} ${c.bold(tool)} → ${shown}${truncated === true ? c.dim(" (truncated)") : ""}`,
      ];
    }
    case "tool.failed": {
      const { tool, error } = event.payload;
      if (error.code === "denied")
        return [c.yellow(`✗ ${tool} denied: ${formatValue(error.message)}`)];
      return [c.red(`✗ ${tool} failed (${error.code}): ${formatValue(error.message)}`)];
    }
    case "tool.outcome_unknown":
      return [
        c.yellow(
          `? ${event.payload.tool} outcome unknown${suffix(": ", event.payload.reason, "")}`,
        ),
      ];
    case "tool.approval_requested": {
      const { tool, toolCallId, sessionId } = event.payload;
      const target = `${context.sessionId} ${toolCallId}${subagentFlag(sessionId, context.sessionId)}`;
      return [
        c.bold(
          c.yellow(`⏸ ${tool} ${formatValue(event.payload.arguments ?? {})} needs your approval`),
        ),
        `  approve: ${c.bold(`troupe approve ${target}`)}`,
        `  deny:    ${c.bold(`troupe deny ${target}`)}`,
      ];
    }
    case "tool.approval_settled": {
      const { toolCallId, decision, alreadySettled } = event.payload;
      const tool = context.toolName(toolCallId) ?? toolCallId;
      if (alreadySettled === true)
        return [c.dim(`· ${tool} was already ${decision.replace("_", " ")}`)];
      if (decision === "approved") return [`${c.green("✓")} ${tool} approved`];
      return [
        c.yellow(decision === "denied" ? `✗ ${tool} denied` : `✗ ${tool} approval timed out`),
      ];
    }
    case "question.asked": {
      const { questionId, text, choices, sessionId } = event.payload;
      const flag = subagentFlag(sessionId, context.sessionId);
      return [
        c.bold(c.magenta(`? ${text}`)),
        ...(choices === undefined || choices.length === 0
          ? []
          : [`  choices: ${choices.join(" | ")}`]),
        `  answer:  ${c.bold(`troupe answer ${context.sessionId} ${questionId} <text>${flag}`)}`,
      ];
    }
    case "question.answered":
      return [c.dim(`↳ answered: ${formatValue(event.payload.text)}`)];
    case "subagent.started": {
      const { subagent, agent, task } = event.payload;
      return [c.cyan(`⇢ ${agent ?? subagent}: ${formatValue(task)}`)];
    }
    case "budget.warning": {
      const { scope, scopeId, unit, spent, limit } = event.payload;
      const amount = (value: number) => (unit === "usd" ? `$${value}` : `${value} tokens`);
      return [c.yellow(`⚠ ${scope} budget ${scopeId}: ${amount(spent)} of ${amount(limit)} spent`)];
    }
    case "subagent.completed": {
      const { subagent, text } = event.payload;
      return [c.cyan(`⇠ ${context.subagentName(subagent) ?? subagent}: ${formatValue(text)}`)];
    }
    case "session.compacted": {
      // docs/capabilities/compaction.md.
      const { through, tokensBefore, tokensAfter, reason } = event.payload;
      return [
        c.dim(
          `⇲ compacted (${reason}): entries 0–${through - 1} summarised, ~${tokensBefore} → ~${tokensAfter} prompt tokens`,
        ),
      ];
    }
    default:
      return [];
  }
}

function suffix(before: string, value: string | undefined, after: string): string {
  return value === undefined || value === "" ? "" : `${before}${value}${after}`;
}

/** ` --subagent <id>` when a subagent's session (not the followed one) asks. */
function subagentFlag(sessionId: string | undefined, followed: string): string {
  return sessionId === undefined || sessionId === followed ? "" : ` --subagent ${sessionId}`;
}
