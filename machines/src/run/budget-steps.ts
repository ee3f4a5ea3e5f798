import { emitEvent } from "@troupe/protocol";
import { readModelCallOutput } from "./model-call-output.js";
import { modelCallEffectId } from "./run-context.js";
import type { RunStep } from "./run-steps.js";

// The run machine's part in spend limits (docs/decisions/0041): the
// `model.call` handler reserves and settles each call against its budgets and
// says in its result which budgets reached their warning threshold; the run
// publishes them. A budget that runs out fails the call before it starts
// (`effect.failed` with code `budget_exceeded`, not retryable), which the
// run's ordinary failure path turns into `run.failed { code: "budget_exceeded" }`:
// a model call is only ever requested once every tool call of the previous
// response has finished, so a run never ends this way in the middle of a tool.

/**
 * One `budget.warning` per budget the current model call's result names in
 * `budgetWarnings`. Runs when the run leaves `calling` (or `cancelling`), so the
 * warnings precede the run's next step's events (`run.completed`, tool calls).
 * Results of other effects and outputs without warnings ask for nothing.
 */
export const emitBudgetWarnings: RunStep = ({ run }, event) => {
  if (run === undefined || event.type !== "effect.completed") return {};
  if (event.effectId !== modelCallEffectId(run)) return {};
  const warnings = readModelCallOutput(event.output)?.budgetWarnings ?? [];
  return {
    actions: warnings.map((warning) =>
      emitEvent("budget.warning", { runId: run.runId, ...warning }),
    ),
  };
};
