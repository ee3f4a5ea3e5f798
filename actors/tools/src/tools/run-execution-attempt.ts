import type { ToolDefinition, ToolProgressReport } from "./define-tool.js";

/**
 * How one execution attempt of a tool's `execute` ended.
 *
 * - `returned` — it resolved with `value`.
 * - `threw` — it rejected (or threw) with `error`, without any abort.
 * - `timed_out` — the tool's `timeoutMs` passed first (its signal was aborted).
 * - `aborted` — the effect's signal aborted first (cancellation or the host
 *   giving the effect up); `reason` is the signal's reason.
 */
export type ExecutionAttemptOutcome =
  | { readonly kind: "returned"; readonly value: unknown }
  | { readonly kind: "threw"; readonly error: unknown }
  | { readonly kind: "timed_out"; readonly timeoutMs: number }
  | { readonly kind: "aborted"; readonly reason: unknown };

/** What {@link runExecutionAttempt} needs besides the tool and its input. */
export interface ExecutionAttemptOptions {
  /** Session, run and tool call, passed to `execute`. */
  readonly call: {
    readonly sessionId: string;
    readonly runId: string;
    readonly toolCallId: string;
  };
  /** The call's idempotency key, passed to `execute`. */
  readonly idempotencyKey: string;
  /** The execution attempt, 1-based, passed to `execute` as its `attempt`. */
  readonly executionAttempt: number;
  /** The effect's signal. */
  readonly signal: AbortSignal;
  /** Passed to `execute` as its `reportProgress` (default: drops reports). */
  readonly reportProgress?: (report: ToolProgressReport) => void;
}

/**
 * Runs one execution attempt of a tool: calls `execute` with a signal that aborts when
 * the effect's signal does or when the tool's `timeoutMs` passes, and stops
 * waiting at that moment even if `execute` ignores its signal (its late
 * settlement is then ignored). Never throws.
 *
 * @param tool - the tool.
 * @param input - the validated input.
 * @param options - session, run and tool call ids, idempotency key, execution attempt, effect signal.
 * @returns how the execution attempt ended, see {@link ExecutionAttemptOutcome}.
 * @see https://nodejs.org/api/globals.html#static-method-abortsignalanysignals
 */
export async function runExecutionAttempt(
  tool: ToolDefinition,
  input: Record<string, unknown>,
  options: ExecutionAttemptOptions,
): Promise<ExecutionAttemptOutcome> {
  const { signal } = options;
  if (signal.aborted) return { kind: "aborted", reason: signal.reason };
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new Error(`tool "${tool.name}" timed out after ${tool.timeoutMs} ms`)),
    tool.timeoutMs,
  );
  const combined = AbortSignal.any([signal, timeout.signal]);
  const stopReason = (): ExecutionAttemptOutcome =>
    signal.aborted
      ? { kind: "aborted", reason: signal.reason }
      : { kind: "timed_out", timeoutMs: tool.timeoutMs };
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<ExecutionAttemptOutcome>((resolve) => {
    onAbort = () => resolve(stopReason());
    combined.addEventListener("abort", onAbort, { once: true });
  });
  const running = (async (): Promise<ExecutionAttemptOutcome> => {
    try {
      const value = await tool.execute(input, {
        sessionId: options.call.sessionId,
        runId: options.call.runId,
        toolCallId: options.call.toolCallId,
        idempotencyKey: options.idempotencyKey,
        signal: combined,
        attempt: options.executionAttempt,
        reportProgress: options.reportProgress ?? (() => undefined),
      });
      return { kind: "returned", value };
    } catch (error) {
      return combined.aborted ? stopReason() : { kind: "threw", error };
    }
  })();
  try {
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) combined.removeEventListener("abort", onAbort);
  }
}
