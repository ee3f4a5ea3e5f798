import type { ToolEffectClass, ToolExecutionStatus } from "@troupe/protocol";

/** Name of the effect handler that runs a tool call (registered by the host for the `tool` kind). */
export const TOOL_EXECUTE_EFFECT = "tool.execute";
/** Effect id of a tool call actor's one `tool.execute` request. */
export const TOOL_EXECUTE_EFFECT_ID = "execute";

/**
 * Input of the `tool.execute` effect. The handler finds the tool `toolName` of
 * the agent, parses `input` (an empty text counts as `{}`) and validates it
 * against the tool's schema, runs the tool with `idempotencyKey` (behind the
 * call's fence), and returns a {@link ToolExecuteOutput}.
 */
export interface ToolExecuteInput {
  readonly sessionId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments exactly as the model wrote them (usually JSON). */
  readonly input: string;
  readonly effectClass: ToolEffectClass;
  /** Agent whose tools to use; absent = the host's default agent. */
  readonly agent?: string;
  /** `<sessionId>/<runId>/<toolCallId>` (`idempotencyKeyOf`). */
  readonly idempotencyKey: string;
}

/**
 * Output of the `tool.execute` effect (`effect.completed.output`).
 *
 * - `succeeded` — `content` is the tool's result as text;
 * - `failed` — the tool threw; `content` says why;
 * - `invalid_arguments` — the arguments did not parse or match the schema, or
 *   the tool is unknown; the tool did not run;
 * - `outcome_unknown` — a call that runs at most once may have started before
 *   a crash and left no result; it was not run again.
 *
 * `truncated` is true when `content` was shortened to the configured limit.
 */
export interface ToolExecuteOutput {
  readonly status: ToolExecutionStatus;
  readonly content: string;
  readonly truncated?: boolean;
  /** Where the full result is kept when `content` was truncated (the host's result store). */
  readonly resultRef?: string;
}

const STATUSES: readonly string[] = [
  "succeeded",
  "failed",
  "invalid_arguments",
  "outcome_unknown",
] satisfies readonly ToolExecutionStatus[];

/**
 * Reads an effect output as a {@link ToolExecuteOutput}, checking its shape so
 * a malformed result is reported as a failure instead of throwing.
 *
 * @param output - `effect.completed.output` of a `tool.execute`.
 * @returns the output (only its known fields), or undefined when it is not one.
 */
export function readToolExecuteOutput(output: unknown): ToolExecuteOutput | undefined {
  if (typeof output !== "object" || output === null) return undefined;
  const { status, content, truncated, resultRef } = output as Record<string, unknown>;
  if (typeof status !== "string" || !STATUSES.includes(status)) return undefined;
  if (typeof content !== "string") return undefined;
  if (truncated !== undefined && typeof truncated !== "boolean") return undefined;
  if (resultRef !== undefined && typeof resultRef !== "string") return undefined;
  return {
    status: status as ToolExecutionStatus,
    content,
    ...(truncated === undefined ? {} : { truncated }),
    ...(resultRef === undefined ? {} : { resultRef }),
  };
}
