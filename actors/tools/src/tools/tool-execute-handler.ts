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
  type ToolProgress,
  MediaRejectedError,
  type MediaLimits,
} from "@troupe/protocol";
import type { Logger } from "pino";
import { EffectCancelledError } from "@troupe/runtime";
import type { EffectContext, EffectHandler } from "@troupe/runtime";
import {
  MAX_TOOL_RESULT_BYTES,
  type ToolDefinition,
  type ToolEffectClass,
  type ToolProgressReport,
  isRetryableEffectClass,
} from "./define-tool.js";
import { ToolCallTelemetry } from "./tool-telemetry.js";
import {
  DEFAULT_LIVENESS_MS,
  DEFAULT_LIVENESS_RENEW_MS,
  type IdempotencyRecordStore,
} from "./idempotency-record-store.js";
import { throttle } from "es-toolkit";
import { ToolOutcomeUnknownError, ToolReportedError } from "./tool-call-errors.js";
import { runExecutionAttempt } from "./run-execution-attempt.js";
import { parseToolArguments } from "./tool-arguments.js";
import {
  cancelledOutput,
  lostAnswerOutput,
  outcomeUnknownOutput,
  threwOutput,
  timedOutOutput,
  unknownToolOutput,
} from "./tool-execute-outputs.js";
import { stringifyToolResult, truncatedContent, utf8ByteLength } from "./tool-result-content.js";
import type { MediaStore } from "../media/media-store.js";
import { type ExtractedMedia, extractToolMedia } from "../media/tool-result-media.js";
import type { ToolResultStore } from "./tool-result-store.js";

/** Shortest time between two `tool.progress` events of one call, in ms (docs/decisions/0024). */
export const TOOL_PROGRESS_INTERVAL_MS = 250;

/** Wait before the first retry of a `read` / `idempotent_write` call, in ms, by default; doubles per retry. */
export const DEFAULT_TOOL_RETRY_BACKOFF_MS = 100;

/** Options of {@link createToolExecuteHandler}. */
export interface ToolExecuteHandlerOptions {
  /**
   * The tools of an agent by its name (undefined = the host's default agent),
   * keyed by tool name. Throws (e.g. `UnknownAgentError`) for an agent the host
   * does not serve; the call then fails.
   */
  readonly toolsOf: (
    agent: string | undefined,
  ) => Readonly<Record<string, ToolDefinition>> | Promise<Readonly<Record<string, ToolDefinition>>>;
  /** The idempotency records of tool calls (`RedisIdempotencyRecordStore` in a deployment). */
  readonly idempotencyRecords: IdempotencyRecordStore;
  /** Where results longer than a tool's `maxResultBytes` are kept in full (`RedisToolResultStore`). */
  readonly results: ToolResultStore;
  /**
   * Where images and files a tool returns (`{ type: "image" | "file", data, mediaType, name? }`
   * in its result) are stored; the result keeps their references
   * (docs/capabilities/media.md). Absent: results are serialised as they are.
   */
  readonly media?: MediaStore | undefined;
  /** Limits on the media a tool returns (size in bytes, media types, count). */
  readonly mediaLimits?: MediaLimits | undefined;
  /** Reports retries, outcome-unknown calls and hand-overs. */
  readonly logger?: Logger;
  /**
   * Publishes a call's progress reports as `tool.progress` events (throttled
   * here to one per {@link TOOL_PROGRESS_INTERVAL_MS}); default: dropped. A
   * throw is logged at debug level and ignored (docs/decisions/0024).
   */
  readonly publishProgress?: (progress: {
    readonly sessionId: string;
    readonly actor: string;
    readonly payload: ToolProgress;
  }) => void;
  /** Wait before the first retry, in ms (doubles per retry); default 100 ms. */
  readonly retryBackoffMs?: number;
  /**
   * Liveness mark of a running execution attempt, in ms (default 5 000), renewed
   * every `livenessRenewMs` (default 500) until its result is recorded. A host
   * that finds another's attempt live waits for its result, polling every
   * `livenessRenewMs`, instead of answering outcome unknown (docs/decisions/0010).
   */
  readonly livenessMs?: number;
  /** See `livenessMs`. */
  readonly livenessRenewMs?: number;
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
 * `EffectCancelledError` (the host gave the effect up: a drain that timed out),
 * nothing is recorded and the reason is rethrown: the next owner decides from
 * the record. A running attempt keeps a liveness mark on its record; another
 * host's `begin` that finds it live waits for the result; once `execute`
 * returned, the record write is retried until the store answers, so a call
 * that finished while Redis was unreachable is reused, not outcome unknown
 * (docs/decisions/0010).
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
  const livenessMs = options.livenessMs ?? DEFAULT_LIVENESS_MS;
  const renewMs = options.livenessRenewMs ?? DEFAULT_LIVENESS_RENEW_MS;

  return async (rawInput: unknown, context: EffectContext): Promise<ToolExecuteOutput> => {
    const input = readInput(rawInput);
    // The tool call's span (`execute_tool <tool>`): a child of the
    // host's effect span, active while the tool runs; and its count.
    const telemetry = new ToolCallTelemetry(input);
    const seen: CallProgress = { effectClass: undefined, attempt: undefined };
    try {
      const output = await telemetry.within(() => execute(input, context, telemetry, seen));
      telemetry.ended(output.status, seen.effectClass, seen.attempt);
      return output;
    } catch (error) {
      telemetry.threw(error, seen.effectClass, seen.attempt);
      throw error;
    }
  };

  /** One `tool.execute`; notes the effect class and execution attempt in `seen` as they become known. */
  async function execute(
    input: ReadInput,
    context: EffectContext,
    telemetry: ToolCallTelemetry,
    seen: CallProgress,
  ): Promise<ToolExecuteOutput> {
    const { signal } = context;
    const tools = await options.toolsOf(input.agent);
    const tool = Object.hasOwn(tools, input.toolName) ? tools[input.toolName] : undefined;
    if (tool === undefined) return unknownToolOutput(input.toolName, Object.keys(tools));
    const effectClass = input.effectClass ?? tool.effectClass;
    seen.effectClass = effectClass;
    const args = parseToolArguments(tool, input.input);
    if (!args.ok) return { status: "invalid_arguments", content: args.message };
    const key = input.idempotencyKey;
    const log = logger?.child({ idempotencyKey: key, tool: tool.name, effectClass });
    if (signal.aborted) return abortedBeforeRun(signal);

    let retryingAttempt: number | undefined;
    let waitingLogged = false;
    // This invocation's id: an execution claim it wrote before a lost answer is its own.
    const claimId = crypto.randomUUID();
    for (;;) {
      const decision = await store("begin", () =>
        records.begin(key, effectClass, {
          livenessMs,
          claimId,
          ...(retryingAttempt === undefined ? {} : { retryingAttempt }),
        }),
      );
      if (decision.kind === "reuse") return reused(decision.result);
      if (decision.kind === "running") {
        // Another execution attempt is live (e.g. on a host that lost the shard's
        // lease): wait for the result it records rather than declare it unknown.
        if (!waitingLogged) {
          log?.info(
            { executionAttempts: decision.executionAttempts },
            "tool call runs elsewhere; waiting for its recorded result",
          );
          waitingLogged = true;
        }
        try {
          await sleep(Math.min(renewMs, Math.max(1, decision.liveForMs)), undefined, { signal });
        } catch {
          if (!EffectCancelledError.isInstance(signal.reason)) throw signal.reason;
          return record(input, tool, cancelledOutput(tool.name, effectClass), signal);
        }
        continue;
      }
      if (decision.kind === "outcome_unknown") {
        const { executionAttempts } = decision;
        seen.attempt = executionAttempts;
        log?.warn({ executionAttempts }, "tool call outcome unknown; not run again");
        return record(
          input,
          tool,
          outcomeUnknownOutput(tool.name, effectClass, executionAttempts),
          signal,
        );
      }
      const { executionAttempt } = decision;
      retryingAttempt = executionAttempt;
      seen.attempt = executionAttempt;
      const alive = keepAlive(key, executionAttempt);
      let outcome: Awaited<ReturnType<typeof runExecutionAttempt>>;
      const progress = progressReporter(input, tool.name, context.address);
      try {
        outcome = await runExecutionAttempt(tool, args.input, {
          call: { sessionId: input.sessionId, runId: input.runId, toolCallId: input.toolCallId },
          idempotencyKey: key,
          executionAttempt,
          signal,
          reportProgress: progress.report,
        });
      } catch (error) {
        alive.stop();
        progress.stop();
        throw error;
      }
      progress.stop();
      if (outcome.kind === "aborted" && !EffectCancelledError.isInstance(outcome.reason)) {
        alive.stop();
        // Given up: the mark ends now, so the next owner decides at once.
        await records.keepAlive(key, executionAttempt, 0).catch(() => undefined);
        log?.debug(
          { executionAttempt },
          "tool call given up by the host; its idempotency record stays started",
        );
        throw outcome.reason;
      }
      try {
        const output = await settle(outcome, executionAttempt);
        if (output !== undefined) return output;
      } finally {
        alive.stop();
      }
      log?.warn(
        { executionAttempt, outcome: outcome.kind },
        "tool execution attempt failed; retrying",
      );
      telemetry.retried(executionAttempt, outcome.kind);
      try {
        await sleep(backoffMs * 2 ** (executionAttempt - 1), undefined, { signal });
      } catch {
        if (!EffectCancelledError.isInstance(signal.reason)) throw signal.reason;
        return record(input, tool, cancelledOutput(tool.name, effectClass), signal);
      }
    }

    /** The recorded output of a finished attempt, or undefined when it is to be retried. */
    async function settle(
      outcome: Awaited<ReturnType<typeof runExecutionAttempt>>,
      executionAttempt: number,
    ): Promise<ToolExecuteOutput | undefined> {
      if (tool === undefined) throw new Error("unreachable: no tool");
      if (outcome.kind === "returned") {
        let content: string;
        let media: readonly ExtractedMedia[] = [];
        try {
          // Images and files in the result go to the media store by reference.
          const extracted =
            options.media === undefined
              ? { value: outcome.value, media }
              : extractToolMedia(outcome.value, options.mediaLimits);
          media = extracted.media;
          content = stringifyToolResult(extracted.value);
        } catch (error) {
          const message = MediaRejectedError.isInstance(error)
            ? `its result holds media that was refused (${error.message})`
            : `its result is not JSON-serialisable (${(error as Error).message})`;
          return record(
            input,
            tool,
            threwOutput(tool.name, new Error(message), executionAttempt),
            signal,
          );
        }
        // Stored by digest: a re-run after a crash stores nothing twice.
        const store = options.media;
        if (store !== undefined) {
          for (const { ref, bytes } of media) {
            await storeUntilDone("media", () => store.put(bytes, ref), signal, logger);
          }
        }
        const refs = media.length === 0 ? {} : { media: media.map(({ ref }) => ref) };
        return record(input, tool, { status: "succeeded", content, ...refs }, signal);
      }
      if (outcome.kind === "aborted") {
        return record(input, tool, cancelledOutput(tool.name, effectClass), signal);
      }
      // The tool answered with an error: a definite answer, never retried.
      if (outcome.kind === "threw" && ToolReportedError.isInstance(outcome.error)) {
        return record(input, tool, threwOutput(tool.name, outcome.error, executionAttempt), signal);
      }
      const canRetry =
        isRetryableEffectClass(effectClass) && executionAttempt < records.maxExecutionAttempts;
      if (canRetry) return undefined;
      // The request left and its answer was lost: a write may have taken effect.
      if (
        outcome.kind === "threw" &&
        ToolOutcomeUnknownError.isInstance(outcome.error) &&
        !isRetryableEffectClass(effectClass)
      ) {
        log?.warn({ executionAttempt }, "tool call lost its answer; outcome unknown");
        return record(input, tool, lostAnswerOutput(tool.name, effectClass, outcome.error), signal);
      }
      return record(
        input,
        tool,
        outcome.kind === "timed_out"
          ? timedOutOutput(tool.name, effectClass, outcome.timeoutMs, executionAttempt)
          : threwOutput(tool.name, outcome.error, executionAttempt),
        signal,
      );
    }
  }

  /**
   * The `reportProgress` of one execution attempt: reports become `tool.progress`
   * events, at most one per {@link TOOL_PROGRESS_INTERVAL_MS} (the latest of a
   * burst is kept), none after `stop`.
   */
  function progressReporter(
    input: ReadInput,
    toolName: string,
    address: { readonly kind: string; readonly id: string },
  ): { report: (report: ToolProgressReport) => void; stop: () => void } {
    const publish = options.publishProgress;
    if (publish === undefined) return { report: () => undefined, stop: () => undefined };
    let index = 0;
    let stopped = false;
    const send = throttle(
      (report: ToolProgressReport) => {
        if (stopped) return;
        try {
          publish({
            sessionId: input.sessionId,
            actor: `${address.kind}/${address.id}`,
            payload: {
              toolCallId: input.toolCallId,
              runId: input.runId,
              tool: toolName,
              progress: report.progress,
              ...(report.total === undefined ? {} : { total: report.total }),
              ...(report.message === undefined ? {} : { message: report.message }),
              index: index++,
            },
          });
        } catch (error) {
          logger?.debug({ err: error }, "a tool.progress could not be published");
        }
      },
      TOOL_PROGRESS_INTERVAL_MS,
      { edges: ["leading", "trailing"] },
    );
    return {
      report: (report) => {
        if (!stopped && Number.isFinite(report.progress)) send(report);
      },
      stop: () => {
        stopped = true;
        send.cancel();
      },
    };
  }

  /**
   * Renews the attempt's liveness mark every `renewMs` until stopped; a failed
   * renewal (Redis unreachable) is retried at the next tick.
   */
  function keepAlive(key: string, executionAttempt: number): { stop: () => void } {
    let pending = false;
    const timer = setInterval(() => {
      if (pending) return;
      pending = true;
      records
        .keepAlive(key, executionAttempt, livenessMs)
        .catch(() => undefined)
        .finally(() => (pending = false));
    }, renewMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** Keeps a long content by reference, records the output in the idempotency record, returns the recorded one. */
  async function record(
    input: ReadInput,
    tool: ToolDefinition,
    output: ToolExecuteOutput,
    signal: AbortSignal,
  ): Promise<ToolExecuteOutput> {
    let final = output;
    // defineTool refuses more, but a definition copied with a larger value must
    // not produce a result message that cannot be sent.
    const shownBytes = Math.min(tool.maxResultBytes, MAX_TOOL_RESULT_BYTES);
    if (utf8ByteLength(output.content) > shownBytes) {
      const ref = input.idempotencyKey;
      await storeUntilDone("put", () => options.results.put(ref, output.content), signal, logger);
      final = {
        status: output.status,
        content: truncatedContent(output.content, shownBytes, ref),
        truncated: true,
        resultRef: ref,
        ...(output.media === undefined ? {} : { media: output.media }),
      };
    }
    const status = final.status === "succeeded" ? "succeeded" : "failed";
    const recorded = await storeUntilDone(
      "complete",
      () => records.complete(input.idempotencyKey, status, final),
      signal,
      logger,
    );
    return reused(recorded.result);
  }
}

/** What one `tool.execute` learnt so far, for its span: the effect class and the execution attempt. */
interface CallProgress {
  effectClass: ToolEffectClass | undefined;
  attempt: number | undefined;
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

/** Longest wait between two tries of a record write while the store is unreachable, in ms. */
const MAX_STORE_RETRY_DELAY_MS = 1000;

/**
 * Runs an idempotent store write (`put`, `complete`: the first `complete` wins)
 * until the store answers: a finished call's result needs no lease, so it is
 * recorded even after a Redis outage longer than the lease TTL (docs/decisions/0010).
 * Gives up only when the host gives the effect up (`signal` aborted for another
 * reason than a cancellation): then it throws that reason.
 */
async function storeUntilDone<T>(
  operation: string,
  action: () => Promise<T>,
  signal: AbortSignal,
  logger: Logger | undefined,
): Promise<T> {
  let warned = false;
  return pRetry(action, {
    forever: true,
    minTimeout: 50,
    factor: 2,
    maxTimeout: MAX_STORE_RETRY_DELAY_MS,
    shouldRetry: () => !(signal.aborted && !EffectCancelledError.isInstance(signal.reason)),
    onFailedAttempt: (error) => {
      if (warned) return;
      warned = true;
      logger?.warn(
        { operation, attempt: error.attemptNumber, err: error },
        "could not record a tool call's result; retrying until the store answers",
      );
    },
  }).catch((error: unknown) => {
    if (signal.aborted && !EffectCancelledError.isInstance(signal.reason)) throw signal.reason;
    throw error;
  });
}

/** Runs a store operation once; a failure becomes a retryable `effect_failed`. */
async function store<T>(operation: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (TroupeError.isInstance(error)) throw error;
    throw new TroupeError(
      "effect_failed",
      // Redis's error is chained, not pasted in (one message, cause chained).
      `tool idempotency record or result store failed (${operation})`,
      { retryable: true, cause: error, details: { operation } },
    );
  }
}
