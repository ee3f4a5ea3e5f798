import {
  emitEvent,
  modelChainPositionSchema,
  type RunModelFallback,
  type WireError,
} from "@troupe/protocol";
import { MAX_MODEL_CALL_TRIES, type ActiveRun } from "./run-context.js";
import type { RunEvent } from "./run-events.js";
import type { RunStep } from "./run-steps.js";

// The fallback model chain (docs/decisions/0042): when the current
// model of a run failed all its tries with an availability error, the run moves
// on to the next model of the agent's chain. Everything decided here comes from
// the journaled `effect.failed` (its error and the chain position the handler
// put in its details), so a replay needs nothing from a host.

/**
 * Error codes of `model.call` failures that say the model (its provider) is
 * unavailable when they are retryable: `model_error` (HTTP 408, 409, 429, 5xx,
 * 529 overloaded, errors of that kind inside a stream, network failures — the
 * handler's `toModelCallError` marks exactly these retryable) and
 * `model_timeout` (the idle or call bound of the agent ran out).
 */
export const AVAILABILITY_ERROR_CODES: readonly string[] = ["model_error", "model_timeout"];

/**
 * Whether a `model.call` error says the model is unavailable (a retryable
 * `model_error` or `model_timeout`), which is what moves a run to its next
 * model. A request the provider refused (HTTP 400, 401, 403, 404, 413, content
 * filter: not retryable), a malformed answer or an unreadable transcript is not
 * an availability error: another model would get the same request, or the
 * configuration needs fixing, so the run fails with it.
 *
 * @param error - `effect.failed.error` of a `model.call`.
 */
export function isAvailabilityError(error: WireError): boolean {
  return error.retryable && AVAILABILITY_ERROR_CODES.includes(error.code);
}

/** The index of the run's current model in its agent's chain (absent = 0, the primary). */
export const modelIndexOf = (run: ActiveRun): number => run.modelIndex ?? 0;

/**
 * The switch a failed model call leads to, or undefined when the run does not
 * fall back: the failure must be the current model's last try
 * ({@link MAX_MODEL_CALL_TRIES}), an availability error
 * ({@link isAvailabilityError}), carry the chain position of the model that
 * failed (`modelChainPositionSchema` in `error.details`, matching the run's
 * current index), and a next model must exist.
 *
 * @param run - the run in progress.
 * @param event - the event that arrived (only `effect.failed` can fall back).
 * @returns the payload of `run.model_fallback`, or undefined.
 */
export function fallbackOf(
  run: ActiveRun | undefined,
  event: RunEvent,
): RunModelFallback | undefined {
  if (run === undefined || event.type !== "effect.failed") return undefined;
  const { error } = event;
  if (run.retry < MAX_MODEL_CALL_TRIES || !isAvailabilityError(error)) return undefined;
  const position = modelChainPositionSchema.safeParse(error.details);
  if (!position.success) return undefined;
  const { modelIndex, models } = position.data;
  const from = models[modelIndex];
  const to = models[modelIndex + 1];
  if (modelIndex !== modelIndexOf(run) || from === undefined || to === undefined) return undefined;
  const statusCode = error.details?.["statusCode"];
  return {
    runId: run.runId,
    modelCallIndex: run.modelCalls,
    fromIndex: modelIndex,
    toIndex: modelIndex + 1,
    from,
    to,
    code: error.code,
    message: error.message,
    ...(typeof statusCode === "number" && Number.isInteger(statusCode) ? { statusCode } : {}),
  };
}

/**
 * Moves the run to the next model of its chain: publishes `run.model_fallback`
 * and makes the same model call with that model, from try 1 (the machine
 * re-enters `calling`, which requests it at once, without a backoff). Later
 * model calls of the run keep that model.
 */
export const fallBack: RunStep = ({ run }, event) => {
  const fallback = fallbackOf(run, event);
  if (run === undefined || fallback === undefined) return {};
  return {
    context: { run: { ...run, modelIndex: fallback.toIndex, retry: 1 } },
    actions: [emitEvent("run.model_fallback", fallback)],
  };
};
