import pRetry from "p-retry";
import { setTimeout as sleep } from "node:timers/promises";
import {
  TOOL_EXECUTE_EFFECT,
  TroupeError,
  idempotencyKeyOf,
  parseEffectInput,
  toolExecuteInputSchema,
  toolExecuteOutputSchema,
  type ToolExecuteInput,
  type ToolExecuteOutput,
} from "@troupe/protocol";
import type { Logger } from "pino";
import { EffectCancelledError } from "@troupe/runtime";
import type { EffectContext, EffectHandler } from "@troupe/runtime";
import {
  MAX_TOOL_RESULT_BYTES,
  type ToolDefinition,
  isRetryableEffectClass,
} from "./define-tool.js";
import type { IdempotencyRecordStore } from "./idempotency-record-store.js";
import { runExecutionAttempt } from "./run-execution-attempt.js";
import { parseToolArguments } from "./tool-arguments.js";
import {
  cancelledOutput,
  outcomeUnknownOutput,
  threwOutput,
  timedOutOutput,
  unknownToolOutput,
} from "./tool-execute-outputs.js";
import { stringifyToolResult, truncatedContent, utf8ByteLength } from "./tool-result-content.js";
import type { ToolResultStore } from "./tool-result-store.js";

/** Wait before the first retry of a `read` / `idempotent_write` call, in ms, by default; doubles per retry. */
export const DEFAULT_TOOL_RETRY_BACKOFF_MS = 100;

/** Options of {@link createToolExecuteHandler}. */
export interface ToolExecuteHandlerOptions {
  /**
   * The tools of an agent by its name (undefined = the host's default agent),
   * keyed by tool name. Throws (e.g. `UnknownAgentError`) for an agent the host
   * does not serve; the call then fails.
   */
  readonly toolsOf: (agent: string | undefined) => Readonly<Record<string, ToolDefinition>>;
  /** The idempotency records of tool calls (`RedisIdempotencyRecordStore` in a deployment). */
  readonly idempotencyRecords: IdempotencyRecordStore;
  /** Where results longer than a tool's `maxResultBytes` are kept in full (`RedisToolResultStore`). */
  readonly results: ToolResultStore;
  /** Reports retries, outcome-unknown calls and hand-overs. */
  readonly logger?: Logger;
  /** Wait before the first retry, in ms (doubles per retry); default 100 ms. */
  readonly retryBackoffMs?: number;
}

/**
 * Creates the handler of the `tool.execute` effect: finds the tool in the
 * agent, validates the model's arguments, consults the call's idempotency
 * record, runs `execute` with the idempotency key, a timeout and the effect's
 * signal, retries `read` / `idempotent_write` calls, records the final result
 * in the idempotency record and returns a {@link ToolExecuteOutput} (a long result truncated, the
 * full one kept by reference). See `tools/README.md` for the contract.
 *
 * Unknown tools and invalid arguments are results (`invalid_arguments`) for the
 * model, not errors. When the signal aborts for another reason than an
 * `EffectCancelledError` (shard hand-over, shutdown, lease loss), nothing is
 * recorded and the reason is rethrown: the next owner decides from the record.
 *
 * @param options - tool lookup, idempotency record store, result store, logger, backoff.
 * @returns an `EffectHandler` for the effect name `tool.execute`.
 * @throws (from the handler) TroupeError `internal` (malformed input),
 *   UnknownAgentError `unknown_agent`, TroupeError `effect_failed` (retryable:
 *   a store failed), or the signal's reason when the host gave the effect up.
 * @example
 * ```ts
 * const toolCall = defineActorKind({
 *   kind: "tool-call", machine, version: "1", messageSchemas,
 *   effects: { [TOOL_EXECUTE_EFFECT]: createToolExecuteHandler({ toolsOf: (name) => agents.get(name).tools, idempotencyRecords, results }) },
 * });
 * ```
 */
export function createToolExecuteHandler(options: ToolExecuteHandlerOptions): EffectHandler {
  const { idempotencyRecords: records, logger } = options;
  const backoffMs = options.retryBackoffMs ?? DEFAULT_TOOL_RETRY_BACKOFF_MS;

  return async (rawInput: unknown, context: EffectContext): Promise<ToolExecuteOutput> => {
    const input = readInput(rawInput);
    const { signal } = context;
    const tools = options.toolsOf(input.agent);
    const tool = Object.hasOwn(tools, input.toolName) ? tools[input.toolName] : undefined;
    if (tool === undefined) return unknownToolOutput(input.toolName, Object.keys(tools));
    const args = parseToolArguments(tool, input.input);
    if (!args.ok) return { status: "invalid_arguments", content: args.message };
    const effectClass = input.effectClass ?? tool.effectClass;
    const key = input.idempotencyKey;
    const log = logger?.child({ idempotencyKey: key, tool: tool.name, effectClass });
    if (signal.aborted) return abortedBeforeRun(signal);

    for (;;) {
      const decision = await store("begin", () => records.begin(key, effectClass));
      if (decision.kind === "reuse") return reused(decision.result);
      if (decision.kind === "outcome_unknown") {
        const { executionAttempts } = decision;
        log?.warn({ executionAttempts }, "tool call outcome unknown; not run again");
        return record(input, tool, outcomeUnknownOutput(tool.name, effectClass, executionAttempts));
      }
      const { executionAttempt } = decision;
      const outcome = await runExecutionAttempt(tool, args.input, {
        idempotencyKey: key,
        executionAttempt,
        signal,
      });
      if (outcome.kind === "returned") {
        let content: string;
        try {
          content = stringifyToolResult(outcome.value);
        } catch (error) {
          const message = `its result is not JSON-serialisable (${(error as Error).message})`;
          return record(input, tool, threwOutput(tool.name, new Error(message), executionAttempt));
        }
        return record(input, tool, { status: "succeeded", content });
      }
      if (outcome.kind === "aborted") {
        if (!EffectCancelledError.isInstance(outcome.reason)) {
          log?.debug(
            { executionAttempt },
            "tool call given up by the host; its idempotency record stays started",
          );
          throw outcome.reason;
        }
        return record(input, tool, cancelledOutput(tool.name, effectClass));
      }
      const canRetry =
        isRetryableEffectClass(effectClass) && executionAttempt < records.maxExecutionAttempts;
      if (!canRetry) {
        return record(
          input,
          tool,
          outcome.kind === "timed_out"
            ? timedOutOutput(tool.name, effectClass, outcome.timeoutMs, executionAttempt)
            : threwOutput(tool.name, outcome.error, executionAttempt),
        );
      }
      log?.warn(
        { executionAttempt, outcome: outcome.kind },
        "tool execution attempt failed; retrying",
      );
      try {
        await sleep(backoffMs * 2 ** (executionAttempt - 1), undefined, { signal });
      } catch {
        if (!EffectCancelledError.isInstance(signal.reason)) throw signal.reason;
        return record(input, tool, cancelledOutput(tool.name, effectClass));
      }
    }
  };

  /** Keeps a long content by reference, records the output in the idempotency record, returns the recorded one. */
  async function record(
    input: ReadInput,
    tool: ToolDefinition,
    output: ToolExecuteOutput,
  ): Promise<ToolExecuteOutput> {
    let final = output;
    // defineTool refuses more, but a definition copied with a larger value must
    // not produce a result message that cannot be sent (issue #11).
    const shownBytes = Math.min(tool.maxResultBytes, MAX_TOOL_RESULT_BYTES);
    if (utf8ByteLength(output.content) > shownBytes) {
      const ref = input.idempotencyKey;
      await store("put", () => options.results.put(ref, output.content), true);
      final = {
        status: output.status,
        content: truncatedContent(output.content, shownBytes, ref),
        truncated: true,
        resultRef: ref,
      };
    }
    const status = final.status === "succeeded" ? "succeeded" : "failed";
    const recorded = await store(
      "complete",
      () => records.complete(input.idempotencyKey, status, final),
      true,
    );
    return reused(recorded.result);
  }
}

/** A `tool.execute` input with its defaults: arguments as text, the idempotency key set. */
type ReadInput = ToolExecuteInput & { readonly input: string; readonly idempotencyKey: string };

/**
 * Validates a `tool.execute` input (`toolExecuteInputSchema`) and fills in its
 * defaults: arguments given as an object are serialised, the idempotency key
 * defaults to `<sessionId>/<runId>/<toolCallId>`.
 *
 * @throws TroupeError `internal` when the input does not match the schema.
 */
function readInput(rawInput: unknown): ReadInput {
  const input = parseEffectInput(TOOL_EXECUTE_EFFECT, toolExecuteInputSchema, rawInput);
  return {
    ...input,
    input: typeof input.input === "string" ? input.input : JSON.stringify(input.input),
    idempotencyKey:
      input.idempotencyKey ?? idempotencyKeyOf(input.sessionId, input.runId, input.toolCallId),
  };
}

/** A recorded output; an unreadable record becomes a failure the model can read. */
function reused(result: unknown): ToolExecuteOutput {
  const parsed = toolExecuteOutputSchema.safeParse(result);
  return parsed.success
    ? parsed.data
    : {
        status: "failed",
        content: "The recorded result of this tool call is unreadable; it is not run again.",
      };
}

/** The answer when the effect's signal aborted before anything ran. */
function abortedBeforeRun(signal: AbortSignal): ToolExecuteOutput {
  if (!EffectCancelledError.isInstance(signal.reason)) throw signal.reason;
  return { status: "failed", content: "The tool call was cancelled before it ran." };
}

/** Runs a store operation; a failure becomes a retryable `effect_failed`. */
async function store<T>(
  operation: string,
  action: () => Promise<T>,
  idempotent = false,
): Promise<T> {
  try {
    // `put` and `complete` may be repeated safely (the first `complete` wins), so a
    // passing Redis failure after the tool ran does not turn its result into an
    // error; `begin` counts execution attempts and is not repeated here.
    return idempotent
      ? await pRetry(action, { retries: 3, minTimeout: 50, factor: 2 })
      : await action();
  } catch (error) {
    if (TroupeError.isInstance(error)) throw error;
    throw new TroupeError(
      "effect_failed",
      // Redis's error is chained, not pasted in (issue #11: one message, cause chained).
      `tool idempotency record or result store failed (${operation})`,
      { retryable: true, cause: error, details: { operation } },
    );
  }
}
