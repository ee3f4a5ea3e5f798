import { type ToolEffectClass, isRetryableEffectClass } from "./define-tool.js";
import type { ToolExecuteOutput } from "@troupe/protocol";

/**
 * The texts the model reads when a tool call did not simply succeed. Each
 * says what happened and what the model may do next; they are the `content`
 * of `tool.execute` outputs.
 */

/**
 * `invalid_arguments` for a tool the agent does not have.
 *
 * @param toolName - the name the model used.
 * @param available - the agent's tool names.
 */
export function unknownToolOutput(
  toolName: string,
  available: readonly string[],
): ToolExecuteOutput {
  const list =
    available.length === 0
      ? "This agent has no tools."
      : `Available tools: ${available.join(", ")}.`;
  return { status: "invalid_arguments", content: `Unknown tool "${toolName}". ${list}` };
}

/**
 * `failed` after the tool threw.
 *
 * @param toolName - the tool.
 * @param error - what it threw.
 * @param executionAttempts - execution attempts made (1+).
 */
export function threwOutput(
  toolName: string,
  error: unknown,
  executionAttempts: number,
): ToolExecuteOutput {
  const message = error instanceof Error ? error.message : String(error);
  const tries = executionAttempts > 1 ? ` (after ${executionAttempts} attempts)` : "";
  return { status: "failed", content: `Tool "${toolName}" failed${tries}: ${message}` };
}

/**
 * The tool's timeout aborted it: `failed` for `read` and `idempotent_write`
 * (after their attempts), `outcome_unknown` for the classes that run at most
 * once.
 *
 * @param toolName - the tool.
 * @param effectClass - its class (a write may have taken effect).
 * @param timeoutMs - the timeout, in ms.
 * @param executionAttempts - execution attempts made (1+).
 */
export function timedOutOutput(
  toolName: string,
  effectClass: ToolEffectClass,
  timeoutMs: number,
  executionAttempts: number,
): ToolExecuteOutput {
  const tries = executionAttempts > 1 ? ` (each of ${executionAttempts} attempts)` : "";
  const effect =
    effectClass === "read" ? "" : " It was aborted and may or may not have taken effect.";
  return {
    // A write that runs at most once and timed out may have taken effect: it is
    // outcome unknown, never run again.
    status: isRetryableEffectClass(effectClass) ? "failed" : "outcome_unknown",
    content: `Tool "${toolName}" timed out after ${timeoutMs} ms${tries}.${effect}`,
  };
}

/**
 * `outcome_unknown` for a write that runs at most once whose request left but
 * whose answer was lost (`ToolOutcomeUnknownError`: e.g. the MCP server's
 * connection closed during the call).
 *
 * @param toolName - the tool.
 * @param effectClass - its class (`non_idempotent_write` or `unclassified`).
 * @param error - what the tool threw.
 */
export function lostAnswerOutput(
  toolName: string,
  effectClass: ToolEffectClass,
  error: Error,
): ToolExecuteOutput {
  return {
    status: "outcome_unknown",
    content:
      `Tool "${toolName}" lost its answer: ${error.message}. It may or may not have taken effect; ` +
      `it was not run again, because it is a ${effectClass} tool. Check before calling it again.`,
  };
}

/**
 * The result of a call cancelled (the run was cancelled) while it ran: `failed`
 * for retryable classes, `outcome_unknown` for writes that run at most once.
 *
 * @param toolName - the tool.
 * @param effectClass - its class.
 */
export function cancelledOutput(toolName: string, effectClass: ToolEffectClass): ToolExecuteOutput {
  if (isRetryableEffectClass(effectClass)) {
    return { status: "failed", content: `Tool "${toolName}" was cancelled while it ran.` };
  }
  return {
    status: "outcome_unknown",
    content: `Tool "${toolName}" was cancelled while it ran; it may or may not have taken effect.`,
  };
}

/**
 * `outcome_unknown` for a call that may not run again: an earlier execution attempt
 * started and no result was recorded (its host stopped).
 *
 * @param toolName - the tool.
 * @param effectClass - its class.
 * @param executionAttempts - execution attempts begun.
 */
export function outcomeUnknownOutput(
  toolName: string,
  effectClass: ToolEffectClass,
  executionAttempts: number,
): ToolExecuteOutput {
  const why = isRetryableEffectClass(effectClass)
    ? `${executionAttempts} attempts started and none recorded a result (their hosts stopped); it is not tried again.`
    : `an attempt started but its host stopped before recording a result. It was not run again, ` +
      `because it is a ${effectClass} tool and may already have taken effect.`;
  return {
    status: "outcome_unknown",
    content: `The outcome of tool "${toolName}" is unknown: ${why} Check its effect before calling it again.`,
  };
}
