import type { EffectContext, EffectHandler } from "@troupe/runtime";
import {
  type Environment,
  type LanguageModelInstance,
  type ModelSpec,
  resolveModel,
  type SpendGuard,
} from "@troupe/models/internal";
import type { AgentRegistry } from "./agent-registry.js";
import { EffectCancelledError } from "@troupe/runtime";
import {
  MODEL_CALL_EFFECT,
  modelCallInputSchema,
  parseEffectInput,
  type ModelCallDelta,
  type ModelCallInput,
  type ModelCallOutput,
} from "@troupe/protocol";
import { type StreamedModelCall, streamModelCall } from "./stream-model-call.js";
import { modelToolSettings, withPolicyDecisions } from "./model-tools.js";
import { ModelTimeoutError } from "./model-timeout-error.js";
import { toModelCallError } from "./to-model-call-error.js";
import { assertModelOutputFits } from "./model-output-size.js";
import { DeltaBatcher } from "./delta-batcher.js";
import { ModelCallTelemetry } from "./model-call-telemetry.js";
import type { TranscriptReader } from "./transcript-reader.js";
import { compactedPrompt } from "./compacted-prompt.js";
import {
  modelChainOf,
  modelIndexOutOfChain,
  modelLabelOf,
  withModelChainPosition,
} from "./model-chain.js";
import { withProviderToolCallIds } from "./provider-tool-call-ids.js";
import {
  reserveModelCallSpend,
  settleFailedModelCallSpend,
  settleModelCallSpend,
} from "./model-call-spend.js";
import { type MediaStore, loadPromptMedia } from "@troupe/tools/internal";
import { PinnedDefinitions } from "./pinned-definitions.js";
import { type AgentDefinitionStore, InMemoryAgentDefinitionStore } from "./definition-store.js";
import { type ModelCallSlots, withModelCallSlot } from "./model-call-slots.js";

/** Options of {@link createModelCallHandler}. */
export interface ModelCallHandlerOptions {
  /** The agents this host serves. */
  readonly agents: AgentRegistry;
  /** Where the session transcripts are read from. */
  readonly transcript: TranscriptReader;
  /**
   * Publishes one delta (e.g. as a `run.delta` event), in order; not awaited
   * (a returned promise's rejection goes to `onPublishError`). Errors are not
   * fatal. Text streamed within one event-loop turn comes as one delta (docs/decisions/0016).
   */
  readonly publishDelta: (delta: ModelCallDelta) => void | Promise<void>;
  /** Called when `publishDelta` throws (deltas are provisional, the call goes on). Default: ignore. */
  readonly onPublishError?: (error: unknown, delta: ModelCallDelta) => void;
  /** Environment for API keys and `TROUPE_MODEL`. Default `process.env`. */
  readonly env?: Environment;
  /**
   * The stream attempt of this run of the handler (1-based), carried by its
   * deltas: it must grow with every stream of the same model call — across the
   * run's retries (`input.retry`) and hosts' re-runs — so that a client keeps
   * the text of the highest one. `agentKinds` counts it in Redis
   * (`RedisKeys.modelStreamAttempt`). Default: the effect context's count of
   * host runs, which does not grow across retries (enough for one process).
   */
  readonly streamAttempt?: (input: ModelCallInput, context: EffectContext) => Promise<number>;
  /**
   * Spend limits (docs/decisions/0041): reserves each call's worst case against its
   * budgets before the model is called and settles its usage after. Absent =
   * no spend limits.
   */
  readonly spend?: SpendGuard;
  /**
   * Concurrency limits (docs/decisions/0058): where calls wait for and hold the agents'
   * slots; hosts of a deployment share it (`agentKinds`: Redis). Absent = no limits.
   */
  readonly slots?: ModelCallSlots;
  /**
   * Where the images and files of user messages and tool results are read
   * from (docs/decisions/0045); absent: every attachment is shown as a text stand-in.
   */
  readonly media?: MediaStore | undefined;
  /**
   * Where agent definition records are written and read (docs/decisions/0055):
   * a run's first call pins the served definition, whose record is stored here,
   * and a later call under another definition reads the pinned record. Hosts of
   * one deployment must share it (`agentKinds` uses Redis). Default: this
   * process only.
   */
  readonly definitions?: AgentDefinitionStore;
  /**
   * Wraps every model the handler resolves (agents' models, the session's, the
   * compaction model) before it is called — e.g. a cassette that records the
   * requests (the test kit's history cassettes). Default: none.
   */
  readonly wrapModel?: (model: LanguageModelInstance) => LanguageModelInstance;
  /**
   * Whether a served definition's `migrate.from` moves a pinned run onto it
   * (default true). False renders every call under its pin, as a recorded
   * call was made (the test kit's history cassettes).
   */
  readonly applyMigrations?: boolean;
}

/**
 * Creates the handler of the `model.call` effect: reads the first
 * `transcriptLength` entries of the session's transcript, builds the prompt
 * (agent instructions + transcript, tool calls and results included), resolves
 * the model (`input.model`, else model `input.modelIndex` of the agent's
 * fallback chain, else `TROUPE_MODEL`, else the scripted demo),
 * maps tool call ids to ones the provider accepts (`withProviderToolCallIds`),
 * streams it with `streamText` under the effect's abort signal
 * and the agent's bounds (`limits.modelIdleTimeoutMs`, `limits.modelCallTimeoutMs`)
 * with the agent's tools (without `execute`; none when `withoutTools`),
 * publishes every text and reasoning delta, and returns a
 * `ModelCallOutput` (`@troupe/protocol`) whose tool calls carry their raw arguments and
 * effect classes (and, for an agent with a fallback chain, `model` and
 * `modelIndex`: the model that answered). An availability error of a chain's
 * model carries its chain position in `details` (`withModelChainPosition`).
 *
 * Pinned definitions (docs/decisions/0055): the call is made under the run's
 * pinned agent definition (`input.definition`) — the served one when it is the
 * same or declares `migrate` from the pinned version, else the pinned record
 * read from `definitions` — and the output's `definition` reports it; a run's
 * first call pins the served definition.
 *
 * Concurrency limits (docs/decisions/0058): the call holds one of the served agent's
 * `limits.maxConcurrentModelCalls` slots in `slots` while the model streams, waiting for one.
 *
 * Cancellation: when the signal aborts with an {@link EffectCancelledError}
 * the handler resolves with what streamed so far (`cancelled: true`,
 * `finishReason: "cancelled"`); any other abort reason is rethrown.
 *
 * @param options - agents, transcript reader, delta publisher, environment.
 * @returns an `EffectHandler` for the effect name `model.call`.
 * Timeouts: when the stream sends no output for the idle timeout,
 * or the call outlasts the call timeout, the HTTP request is aborted and the
 * handler throws a retryable `ModelTimeoutError` (`model_timeout`); the run
 * machine retries it and, after its tries, fails the run with that code. The
 * bounds are read from the agent definition when the call is made, like its
 * model and tools: they bound an effect whose result is journaled, so a replay
 * never needs them (docs/decisions/0011).
 *
 * @throws (from the handler) ModelCallError `model_error` (retryable as the provider says,
 *   for errors on the HTTP response and inside a 200 stream alike), ModelTimeoutError
 *   `model_timeout` (retryable),
 *   ModelNotConfiguredError `model_not_configured`, UnknownAgentError `unknown_agent`,
 *   TroupeError `effect_failed` (retryable, transcript unreadable or short), TroupeError
 *   `internal` (malformed input), TroupeError `payload_too_large` (an answer over
 *   `MAX_MODEL_OUTPUT_BYTES`), DefinitionUnavailableError `definition_unavailable` (the pinned
 *   definition cannot be served), or the signal's reason when aborted for another reason.
 * @example
 * ```ts
 * const run = defineActorKind({
 *   kind: "run",
 *   machine: runMachine,
 *   version: "1",
 *   messageSchemas,
 *   effects: { [MODEL_CALL_EFFECT]: createModelCallHandler({ agents, transcript, publishDelta }) },
 * });
 * ```
 */
export function createModelCallHandler(options: ModelCallHandlerOptions): EffectHandler {
  const env = options.env ?? process.env;
  const resolved = new Map<string, LanguageModelInstance>();
  const wrap = options.wrapModel ?? ((model: LanguageModelInstance) => model);
  const modelFor = (spec: ModelSpec | undefined): LanguageModelInstance => {
    if (spec !== undefined && typeof spec !== "string") return wrap(spec);
    const key = spec ?? "";
    const cached = resolved.get(key) ?? resolveModel(spec, env);
    resolved.set(key, cached);
    return wrap(cached);
  };
  const definitions = new PinnedDefinitions(
    options.definitions ?? new InMemoryAgentDefinitionStore(),
    env,
  );

  return async (rawInput: unknown, context: EffectContext): Promise<ModelCallOutput> => {
    const input = parseEffectInput(MODEL_CALL_EFFECT, modelCallInputSchema, rawInput);
    const { signal } = context;
    // A fresh host's first calls wait for the agent's MCP servers to connect
    // (or fail), so their tools are offered.
    await options.agents.ready(input.agent);
    // The run's pinned definition, or the served one (docs/decisions/0055).
    const pinned = await definitions.resolve(options.agents.get(input.agent), input.definition, {
      migrate: options.applyMigrations !== false,
    });
    const agent = pinned.agent;
    // The model of the agent's fallback chain this call uses (docs/decisions/0042).
    const chain = modelChainOf(agent, input.model);
    const modelIndex = input.model === undefined ? (input.modelIndex ?? 0) : 0;
    if (modelIndex >= chain.length) {
      throw modelIndexOutOfChain(agent.name, modelIndex, chain.length);
    }
    const model = modelFor(chain[modelIndex]);
    const position = { modelIndex, models: chain.map((spec) => modelLabelOf(spec, env)) };
    const answeredBy = chain.length > 1 ? { model: position.models[modelIndex], modelIndex } : {};
    // The stream attempt (a Redis INCR) is counted while the transcript is read
    // and the model streams; deltas wait for it. An attempt number
    // spent on a call that then fails is harmless: attempts only need to grow.
    const attempt = Promise.resolve(options.streamAttempt?.(input, context) ?? context.hostRun());
    let streamAttempt = 0;
    const attemptKnown = attempt.then((value) => {
      streamAttempt = value;
    });
    attemptKnown.catch(() => undefined);
    // The transcript window from the latest summary on, compacted first when
    // over the agent's budget or asked to (compacted-prompt.ts);
    // its attachments and tool media are read for the prompt (docs/capabilities/media.md).
    const compactionSpec = agent.context?.compactionModel ?? chain[modelIndex];
    const compactionModel =
      agent.context?.compactionModel === undefined
        ? model
        : modelFor(agent.context.compactionModel);
    // A summary written by the call's own model (no `compactionModel`) that
    // failed for availability carries the chain position, so the run falls
    // back to the next model as for the call itself.
    const window = await compactedPrompt({
      agent,
      model,
      compactionModel,
      input,
      transcript: options.transcript,
      signal,
      loadMedia: (entries) => loadPromptMedia(entries, options.media, agent.media?.accepts),
      // The summarising call is a model call of its own in the spend ledger,
      // keyed `<effectId>.compact`, against the same budgets; a
      // summary written in parts keys its later parts `.compact2`, ….
      reserveSummarySpend: (summaryPrompt, part) =>
        reserveModelCallSpend(options.spend, {
          agents: options.agents,
          input,
          effectId: `${context.effectId}.compact${part === 0 ? "" : String(part + 1)}`,
          agent,
          spec: compactionSpec,
          model: compactionModel,
          prompt: summaryPrompt,
        }),
    }).catch((error: unknown) => {
      throw agent.context?.compactionModel === undefined
        ? withModelChainPosition(error, position)
        : error;
    });
    if (window === undefined) return cancelledOrRethrow(signal, undefined);
    const { compaction } = window;
    // Tool call ids another provider made are mapped to ones this provider accepts.
    const prompt = withProviderToolCallIds(window.prompt, model.provider);
    // Spend limits: a budget that cannot hold the worst case fails
    // the call here, before the model is called (budget_exceeded).
    const spend = await reserveModelCallSpend(options.spend, {
      agents: options.agents,
      input,
      effectId: context.effectId,
      agent,
      spec: chain[modelIndex],
      model,
      prompt,
    });
    let index = 0;
    // Deltas are provisional (not journaled); they go out once per event-loop
    // turn, joined, and all of them before the result is delivered.
    const deltas = new DeltaBatcher((kind, text) => {
      const delta: ModelCallDelta = {
        sessionId: input.sessionId,
        ...(input.parentSessionId === undefined ? {} : { parentSessionId: input.parentSessionId }),
        runId: input.runId,
        modelCallIndex: input.modelCallIndex,
        modelCallId: `${input.runId}.m${input.modelCallIndex}`,
        streamAttempt,
        retry: input.retry,
        effectId: context.effectId,
        kind,
        text,
        index: index++,
      };
      try {
        const published = options.publishDelta(delta);
        if (published instanceof Promise) {
          published.catch((error: unknown) => options.onPublishError?.(error, delta));
        }
      } catch (error) {
        options.onPublishError?.(error, delta);
      }
    }, attemptKnown);
    // The model call's span (`chat <model>`): a child of the host's
    // effect span, active while the model streams.
    const telemetry = new ModelCallTelemetry(model);
    // What streamed: the spend settlement of a call that fails or is
    // cancelled after output and the answering model's price read it.
    let streamed: StreamedModelCall | undefined;
    const call = async (): Promise<ModelCallOutput> => {
      try {
        streamed = await streamModelCall({
          model,
          ...prompt,
          ...modelToolSettings(agent, input.withoutTools, prompt.messages),
          ...(spend === undefined ? {} : { maxOutputTokens: spend.maxOutputTokens }),
          signal,
          timeouts: {
            idleMs: agent.limits.modelIdleTimeoutMs,
            callMs: agent.limits.modelCallTimeoutMs,
          },
          providerOptions: {
            troupe: {
              sessionId: input.sessionId,
              runId: input.runId,
              modelCallIndex: input.modelCallIndex,
              retry: input.retry,
              ...(modelIndex === 0 ? {} : { modelIndex }),
            },
          },
          onDelta: (kind, text) => {
            deltas.add(kind, text);
            return Promise.resolve();
          },
        });
      } finally {
        await deltas.drain();
      }
      // A stream attempt that could not be counted fails the call (retryable).
      await attempt;
      if (streamed.timedOut !== undefined && !signal.aborted) {
        throw new ModelTimeoutError({
          timeout: streamed.timedOut,
          timeoutMs:
            streamed.timedOut === "idle"
              ? agent.limits.modelIdleTimeoutMs
              : agent.limits.modelCallTimeoutMs,
          provider: model.provider,
          modelId: model.modelId,
        });
      }
      if (streamed.aborted || (signal.aborted && !streamed.finished)) {
        return cancelledOrRethrow(signal, streamed);
      }
      if (streamed.hasError) {
        throw toModelCallError(streamed.error, model);
      }
      return assertModelOutputFits({
        text: streamed.text,
        ...(streamed.reasoning.length > 0 ? { reasoning: streamed.reasoning } : {}),
        finishReason: streamed.finishReason ?? "other",
        usage: streamed.usage,
        // A call without tools ends the run: calls of tools it was not offered are dropped.
        toolCalls: input.withoutTools
          ? []
          : withPolicyDecisions(streamed.toolCalls, agent, input.toolPolicy),
        ...answeredBy,
        ...(compaction === undefined ? {} : { compaction }),
        definition: pinned.used,
      });
    };
    // The served agent's concurrency limit, shared by runs pinned to other definitions.
    const served = options.agents.get(input.agent);
    const slot = { agent: served.name, callTimeoutMs: agent.limits.modelCallTimeoutMs };
    const limited = () =>
      withModelCallSlot(options.slots, served.limits.maxConcurrentModelCalls, slot, context, {
        work: () => telemetry.within(call),
        aborted: () => cancelledOrRethrow(signal, undefined),
      });
    try {
      const output = await settleModelCallSpend(
        spend,
        await limited(),
        streamed,
        window.budgetWarnings,
      );
      telemetry.succeeded(output, streamed?.responseModel);
      return output;
    } catch (error) {
      // Charged what streamed before the failure, else given back.
      await settleFailedModelCallSpend(spend, streamed).catch(() => undefined);
      telemetry.failed(error);
      throw withModelChainPosition(error, position);
    }
  };
}

/** The partial result for a deliberate cancellation; any other abort reason is rethrown. */
function cancelledOrRethrow(
  signal: AbortSignal,
  streamed: StreamedModelCall | undefined,
): ModelCallOutput {
  if (!EffectCancelledError.isInstance(signal.reason)) throw signal.reason;
  return assertModelOutputFits({
    text: streamed?.text ?? "",
    ...(streamed !== undefined && streamed.reasoning.length > 0
      ? { reasoning: streamed.reasoning }
      : {}),
    finishReason: "cancelled",
    usage: streamed?.usage ?? { inputTokens: 0, outputTokens: 0 },
    toolCalls: [],
    cancelled: true,
  });
}
