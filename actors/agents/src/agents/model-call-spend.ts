import type { BudgetWarning, ModelCallInput, ModelCallOutput } from "@troupe/protocol";
import type { SpendGuard, SpendHold } from "../budget/spend-guard.js";
import type { LanguageModelInstance, ModelSpec } from "../models/resolve-model.js";
import type { AgentDefinition } from "./agent-definition.js";
import type { AgentRegistry } from "./agent-registry.js";
import type { ModelPrompt } from "./build-model-prompt.js";
import { subagentAgentName } from "./subagents.js";
import { estimatePromptTokens } from "./prompt-tokens.js";

// The `model.call` handler's calls into spend limits (issue #19,
// docs/decisions/0041): reserve before the model streams, settle after.

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
 * Settles the call's actual usage and adds the budgets it brought to their
 * threshold to the output (`budgetWarnings`), after those of the call's
 * summarising call (compaction), if any.
 *
 * @param hold - the call's reservation, if any.
 * @param output - the call's result.
 * @param earlier - warnings the summarising call's settlement already crossed.
 */
export async function settleModelCallSpend(
  hold: SpendHold | undefined,
  output: ModelCallOutput,
  earlier: readonly BudgetWarning[] = [],
): Promise<ModelCallOutput> {
  const warnings = [...earlier, ...(hold === undefined ? [] : await hold.settle(output.usage))];
  return warnings.length === 0 ? output : { ...output, budgetWarnings: warnings };
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
