import type { BudgetWarning, ModelCallInput, ModelCallOutput, Usage } from "@troupe/protocol";
import type {
  SpendGuard,
  SpendHold,
  LanguageModelInstance,
  ModelSpec,
} from "@troupe/models/internal";
import type { AgentDefinition } from "./agent-definition.js";
import type { AgentRegistry } from "./agent-registry.js";
import type { ModelPrompt } from "./build-model-prompt.js";
import { subagentAgentName } from "./subagents.js";
import { estimatePromptTokens } from "./prompt-tokens.js";
import type { StreamedModelCall } from "./stream-model-call.js";
import { estimateTextTokens } from "./text-tokens.js";

// The `model.call` handler's calls into spend limits (docs/decisions/0041):
// reserve before the model streams, settle after.

/** What {@link reserveModelCallSpend} needs to know about the call. */
export interface ModelCallSpendContext {
  readonly agents: AgentRegistry;
  readonly input: ModelCallInput;
  readonly effectId: string;
  readonly agent: AgentDefinition;
  /** The spec the call resolved: the session's model, else the agent's chain at `modelIndex`. */
  readonly spec: ModelSpec | undefined;
  readonly model: LanguageModelInstance;
  readonly prompt: ModelPrompt;
}

/**
 * Reserves the call's worst case (see `SpendGuard.reserve`). A subagent's call
 * (`parentSessionId` set, agent `<parent>--<subagent>`) counts against the tree
 * of its parent session and the parent agent's budgets, and against the
 * delegating run's `run` budget when the input names it (`parentRunId`).
 *
 * @param guard - the host's spend guard; undefined = no spend limits on this host.
 * @returns the hold to settle, or undefined when no budget applies.
 * @throws BudgetExceededError (`budget_exceeded`, not retryable) before the model is called.
 */
export async function reserveModelCallSpend(
  guard: SpendGuard | undefined,
  call: ModelCallSpendContext,
): Promise<SpendHold | undefined> {
  if (guard === undefined) return undefined;
  const { input, agent } = call;
  return guard.reserve({
    sessionId: input.sessionId,
    runId: input.runId,
    effectId: call.effectId,
    rootSessionId: input.parentSessionId ?? input.sessionId,
    ...(input.parentSessionId === undefined || input.parentRunId === undefined
      ? {}
      : { parentRunId: input.parentRunId }),
    agent,
    rootAgent: rootAgentOf(call.agents, input, agent),
    model: {
      spec: typeof call.spec === "string" ? call.spec : undefined,
      modelId: call.model.modelId,
    },
    promptTokens: estimatePromptTokens(call.prompt),
  });
}

/**
 * What streamed in a model call, for its settlement
 * (docs/capabilities/spend-limits.md): the parts of its `streamModelCall`
 * result that count — the text and reasoning, the usage the provider reported
 * (zeros when it reported none, e.g. on an abort) and the answering model
 * (`response-metadata`). Undefined: nothing streamed.
 */
export type StreamedSpend =
  Pick<StreamedModelCall, "text" | "reasoning" | "usage" | "responseModel"> | undefined;

/**
 * The usage charged for a call that did not finish (failed, timed out or
 * cancelled after output streamed): a provider bills the prompt and
 * what it generated, and often reports no usage for a stream that broke off,
 * so the charge is at least the reservation's prompt estimate and
 * `estimateTextTokens` of what streamed. A call before any output (an error
 * answer, a refused request) is charged what the provider reported, usually
 * nothing.
 *
 * @param promptTokens - the reservation's prompt estimate (`SpendHold.promptTokens`).
 * @param streamed - what streamed.
 * @returns the tokens to settle; both 0 when nothing streamed and nothing was reported.
 */
export function unfinishedCallUsage(promptTokens: number, streamed: StreamedSpend): Usage {
  if (streamed === undefined) return { inputTokens: 0, outputTokens: 0 };
  const { text, reasoning, usage } = streamed;
  if (text.length === 0 && reasoning.length === 0) return usage;
  return {
    inputTokens: Math.max(usage.inputTokens, promptTokens),
    outputTokens: Math.max(
      usage.outputTokens,
      estimateTextTokens(text) + estimateTextTokens(reasoning),
    ),
  };
}

/**
 * Settles the call's usage and adds the budgets it brought to their
 * threshold to the output (`budgetWarnings`), after those of the call's
 * summarising call (compaction), if any. A cancelled call is charged at least
 * what streamed ({@link unfinishedCallUsage}); the price is the answering
 * model's (`SpendHold.settle`).
 *
 * @param hold - the call's reservation, if any.
 * @param output - the call's result.
 * @param streamed - what streamed, for a cancelled call's charge and the answering model.
 * @param earlier - warnings the summarising call's settlement already crossed.
 */
export async function settleModelCallSpend(
  hold: SpendHold | undefined,
  output: ModelCallOutput,
  streamed: StreamedSpend,
  earlier: readonly BudgetWarning[] = [],
): Promise<ModelCallOutput> {
  const usage =
    hold !== undefined && output.cancelled === true
      ? unfinishedCallUsage(hold.promptTokens, streamed)
      : output.usage;
  const warnings = [
    ...earlier,
    ...(hold === undefined
      ? []
      : await hold.settle(usage, streamed?.responseModel, output.cancelled !== true)),
  ];
  return warnings.length === 0 ? output : { ...output, budgetWarnings: warnings };
}

/**
 * Ends the reservation of a call that failed (an error, a timeout, a store
 * error at settlement): settles what streamed ({@link unfinishedCallUsage}),
 * so retries of a call that streams and then fails count every try's output
 * against the budgets (a cap cannot leak by retries × partial output); gives
 * the reservation back when nothing streamed and the provider reported nothing.
 *
 * @param hold - the call's reservation, if any.
 * @param streamed - what streamed before the failure.
 * @throws what the ledger throws (`unavailable`); the caller reports the call's own error.
 */
export async function settleFailedModelCallSpend(
  hold: SpendHold | undefined,
  streamed: StreamedSpend,
): Promise<void> {
  if (hold === undefined) return;
  const usage = unfinishedCallUsage(hold.promptTokens, streamed);
  if (usage.inputTokens === 0 && usage.outputTokens === 0) await hold.release();
  else await hold.settle(usage, streamed?.responseModel);
}

/** The agent of the tree's root: the parent of a subagent's agent, else the agent itself. */
function rootAgentOf(
  agents: AgentRegistry,
  input: ModelCallInput,
  agent: AgentDefinition,
): AgentDefinition {
  if (input.parentSessionId === undefined) return agent;
  const parent = agents.all.find((candidate) =>
    Object.keys(candidate.subagents).some(
      (name) => subagentAgentName(candidate.name, name) === agent.name,
    ),
  );
  return parent ?? agent;
}
