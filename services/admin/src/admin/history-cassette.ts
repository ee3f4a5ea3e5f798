import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  AgentRegistry,
  createModelCallHandler,
  ModelCassette,
  ScriptedModel,
  type AgentDefinition,
  type AgentDefinitionStore,
  type Environment,
  type LanguageModelInstance,
  type ScriptedStep,
  type TranscriptReader,
} from "@troupe/agents/internal";
import {
  MODEL_CALL_EFFECT,
  decodeMessage,
  hostMessageSchemas,
  modelCallInputSchema,
  modelCallOutputSchema,
  parseAddress,
  type ModelCallInput,
  type ModelCallOutput,
  type TroupeHistory,
} from "@troupe/protocol";

/** Options of {@link writeHistoryCassette}. */
export interface HistoryCassetteOptions {
  /** Where the cassette is written (its folder is created). */
  readonly file: string;
  /** The agents the hosts served (the deployment's agent module). */
  readonly agents: readonly AgentDefinition[];
  /** Agent of sessions that named none; default: the first. */
  readonly defaultAgent?: string;
  /** The deployment's transcripts (`JetStreamTranscriptReader` over its transcript stream). */
  readonly transcript: TranscriptReader;
  /**
   * The deployment's agent definition records (`RedisAgentDefinitionStore`), so
   * a run pinned to an earlier definition is rendered under it. Default: the
   * served definitions only.
   */
  readonly definitions?: AgentDefinitionStore;
  /**
   * Environment models are resolved with. No provider is called, so a
   * provider's missing API key is filled with a placeholder. Default `process.env`.
   */
  readonly env?: Environment;
}

/** What {@link writeHistoryCassette} wrote. */
export interface HistoryCassetteReport {
  readonly file: string;
  /** Model requests recorded (a call that compacted first counts two). */
  readonly calls: number;
  /** Completed model calls left out, with why (a cancelled call, a result that is not a model call output). */
  readonly skipped: readonly { readonly effectId: string; readonly reason: string }[];
}

/**
 * Turns a recorded conversation into a model cassette (`ModelCassette`), so a
 * production conversation becomes a test: every `model.call` whose result the
 * history's run actors journaled is rendered again as the host rendered it —
 * the same handler, the run's pinned definition, the deployment's transcript —
 * and recorded with the journaled answer as the model's stream. No provider is
 * called. Replaying the cassette with the same agents and user messages gives
 * the recorded answers.
 *
 * Each call is rendered under the definition its output names (the served
 * one, or its record from `definitions`), never moved by a declared migration.
 * The answers stream without their original timing (one text part per word);
 * attachments reach the request as text stand-ins (no media store is read).
 *
 * @param history - a history exported with `tree` (`troupe history export --tree`).
 * @param options - see {@link HistoryCassetteOptions}.
 * @returns the file, the number of requests recorded and the calls left out.
 * @throws TroupeError from the handler (e.g. `unknown_agent` when the agents do not
 *   include the conversation's, `definition_unavailable`); the writer's I/O errors.
 */
export async function writeHistoryCassette(
  history: TroupeHistory,
  options: HistoryCassetteOptions,
): Promise<HistoryCassetteReport> {
  const cassette = await ModelCassette.open({ file: options.file, mode: "record" });
  // The journaled answer of the call being rendered; a call that compacted
  // first answers its summarising request with the summary.
  let answers: ScriptedStep[] = [];
  const answering = (inner: LanguageModelInstance): LanguageModelInstance => {
    const scripted = new ScriptedModel(({ callIndex }) => answers[callIndex] ?? { text: "" });
    const model: LanguageModelV4 = {
      specificationVersion: "v4",
      provider: inner.provider,
      modelId: inner.modelId,
      supportedUrls: {},
      doGenerate: (callOptions) => scripted.doGenerate(callOptions),
      doStream: (callOptions) => scripted.doStream(callOptions),
    };
    return cassette.model(model);
  };
  const handler = createModelCallHandler({
    agents: new AgentRegistry(options.agents, {
      ...(options.defaultAgent === undefined ? {} : { defaultAgent: options.defaultAgent }),
    }),
    transcript: options.transcript,
    publishDelta: () => undefined,
    env: withPlaceholderKeys(options.env ?? process.env),
    ...(options.definitions === undefined ? {} : { definitions: options.definitions }),
    wrapModel: answering,
    // Each call under the definition it was made under (its output names it).
    applyMigrations: false,
  });
  const skipped: { effectId: string; reason: string }[] = [];
  for (const call of journaledModelCalls(history)) {
    if (call.output === undefined || call.output.cancelled === true) {
      skipped.push({
        effectId: call.effectId,
        reason:
          call.output === undefined
            ? "its journaled result is not a model call output"
            : "it was cancelled",
      });
      continue;
    }
    answers = answersOf(call.output);
    // The definition the call was made under, as its output reports it: a
    // run's first call carries no pin, and a migrated call's pin is the old one.
    const made = call.output.definition;
    const input: ModelCallInput =
      made === undefined
        ? call.input
        : {
            ...call.input,
            definition: {
              hash: made.hash,
              ...(made.version === undefined ? {} : { version: made.version }),
            },
          };
    await handler(input, {
      signal: new AbortController().signal,
      address: { kind: "run", id: call.input.sessionId },
      effectId: call.effectId,
      hostRun: () => Promise.resolve(1),
    });
  }
  await cassette.save();
  return { file: options.file, calls: cassette.calls, skipped };
}

/** A completed model call of a history: its request and its answer (undefined when not a model call output). */
interface JournaledModelCall {
  readonly effectId: string;
  readonly input: ModelCallInput;
  readonly output: ModelCallOutput | undefined;
}

/** The completed `model.call`s of the history's run actors, in journal order. */
function journaledModelCalls(history: TroupeHistory): JournaledModelCall[] {
  const calls: JournaledModelCall[] = [];
  for (const actor of history.actors) {
    if (parseAddress(actor.address).kind !== "run") continue;
    const requests = new Map<string, ModelCallInput>();
    for (const generation of actor.generations) {
      for (const effect of generation.effects as {
        effectId?: string;
        effect?: string;
        input?: unknown;
      }[]) {
        if (effect.effect !== MODEL_CALL_EFFECT || typeof effect.effectId !== "string") continue;
        const input = modelCallInputSchema.safeParse(effect.input);
        if (input.success) requests.set(effect.effectId, input.data);
      }
    }
    for (const entry of actor.journal) {
      if (entry.type !== "effect.completed") continue;
      let payload: { effectId?: unknown; output?: unknown };
      try {
        payload = decodeMessage(new Uint8Array(Buffer.from(entry.data, "base64")), {
          subject: entry.subject,
          ...(entry.contentType === undefined ? {} : { contentType: entry.contentType }),
          schemas: hostMessageSchemas,
          defaults: { id: `${actor.address}:${entry.seq}`, timestampMs: entry.timestampMs },
        }).payload as typeof payload;
      } catch {
        continue;
      }
      // Only a model call's result answers an effect id a generation requested as `model.call`.
      const input =
        typeof payload.effectId === "string" ? requests.get(payload.effectId) : undefined;
      if (input === undefined) continue;
      const output = modelCallOutputSchema.safeParse(payload.output);
      calls.push({
        effectId: payload.effectId as string,
        input,
        output: output.success ? output.data : undefined,
      });
    }
  }
  return calls;
}

/** API keys a model spec needs to resolve; never sent: the rendered requests go to the cassette. */
const PROVIDER_KEYS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"];

function withPlaceholderKeys(env: Environment): Environment {
  const filled: Record<string, string | undefined> = { ...env };
  for (const key of PROVIDER_KEYS) {
    if ((filled[key] ?? "").trim() === "") filled[key] = "unused-by-the-cassette-export";
  }
  return filled;
}

const FINISH_REASONS = new Set(["stop", "length", "content-filter", "tool-calls", "other"]);

/** The scripted answers that replay a journaled output: the summary first when the call compacted. */
function answersOf(output: ModelCallOutput): ScriptedStep[] {
  const answer: ScriptedStep = {
    text: output.text,
    ...(output.reasoning === undefined ? {} : { reasoning: output.reasoning }),
    toolCalls: output.toolCalls.map(({ toolCallId, toolName, input }) => ({
      toolCallId,
      toolName,
      input,
    })),
    usage: output.usage,
    ...(FINISH_REASONS.has(output.finishReason)
      ? { finishReason: output.finishReason as NonNullable<ScriptedStep["finishReason"]> }
      : {}),
  };
  return output.compaction === undefined
    ? [answer]
    : [{ text: output.compaction.text, usage: output.compaction.usage }, answer];
}
