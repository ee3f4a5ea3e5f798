import { isAvailabilityError } from "@troupe/machines";
import {
  MAX_MODEL_CHAIN_LENGTH,
  TroupeError,
  cutText,
  type ModelChainPosition,
} from "@troupe/protocol";
import type { Environment, ModelSpec } from "@troupe/models";
import type { AgentDefinition } from "./agent-definition.js";

/** The longest model label events carry, in characters (`modelLabelSchema`). */
const MAX_LABEL_LENGTH = 256;

/**
 * The models a run of `agent` may call, in order (docs/decisions/0042): the session's
 * model alone when the session names one (a session's choice replaces the
 * agent's chain), else the agent's primary and its `fallbackModels`. An entry
 * is `undefined` when the agent names no model (`TROUPE_MODEL`, then the
 * scripted demo).
 *
 * @param agent - the agent answering.
 * @param sessionModel - `model.call` input `model` (the session's), if any.
 * @returns 1 to 5 specs.
 */
export function modelChainOf(
  agent: Pick<AgentDefinition, "model" | "fallbackModels">,
  sessionModel: string | undefined,
): readonly (ModelSpec | undefined)[] {
  if (sessionModel !== undefined) return [sessionModel];
  return [agent.model, ...(agent.fallbackModels ?? [])].slice(0, MAX_MODEL_CHAIN_LENGTH);
}

/**
 * How events name a model: the spec string as given (`openai:gpt-4o`), or
 * `<provider>:<modelId>` of an AI SDK model object (`anthropic.messages:claude-sonnet-4-5`);
 * with no spec, `TROUPE_MODEL`, else `scripted:demo` (what `resolveModel` calls).
 * At most 256 characters (longer ones are cut).
 *
 * @param spec - a chain entry.
 * @param env - where `TROUPE_MODEL` is read.
 * @example modelLabelOf("openai:gpt-4o", {}) // "openai:gpt-4o"
 */
export function modelLabelOf(spec: ModelSpec | undefined, env: Environment): string {
  const label =
    spec === undefined
      ? (env["TROUPE_MODEL"]?.trim() ?? "") || "scripted:demo"
      : typeof spec === "string"
        ? spec.trim()
        : `${spec.provider}:${spec.modelId}`;
  return cutText(label, MAX_LABEL_LENGTH) || "unnamed";
}

/**
 * Adds the model's chain position to an availability error of a model call
 * (a retryable `model_error` or `model_timeout`), in its `details`, so the
 * run machine can decide from the journaled `effect.failed` whether a next
 * model exists (`modelChainPositionSchema`, docs/decisions/0042). Only for a
 * chain of 2 or more: with one model there is nothing to fall back to, and
 * the error stays as it was. The error is the handler's own, made for this
 * call, so it is extended in place (its class, message and cause stay).
 *
 * @param error - what the model call threw.
 * @param position - the index of the model that failed and the chain's labels.
 * @returns `error`.
 */
export function withModelChainPosition(error: unknown, position: ModelChainPosition): unknown {
  if (position.models.length < 2) return error;
  if (!TroupeError.isInstance(error) || !isAvailabilityError(error)) return error;
  const details = { ...error.details, modelIndex: position.modelIndex, models: position.models };
  (error as { details: Record<string, unknown> | undefined }).details = details;
  return error;
}

/**
 * The error for a `model.call` whose `modelIndex` is past the agent's chain (a
 * host whose agent has fewer models than the host that chose the fallback, in
 * a rolling deploy). Not retryable: the run fails with `model_not_configured`.
 *
 * @param agentName - the agent.
 * @param modelIndex - the index asked for.
 * @param length - the chain's length on this host.
 */
export function modelIndexOutOfChain(
  agentName: string,
  modelIndex: number,
  length: number,
): TroupeError {
  return new TroupeError(
    "model_not_configured",
    `Agent "${agentName}" has ${length} model${length === 1 ? "" : "s"} on this host; ` +
      `the run asked for model ${modelIndex + 1} of its fallback chain.`,
    { details: { modelIndex, chainLength: length } },
  );
}
