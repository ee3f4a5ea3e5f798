import {
  ModelNotConfiguredError,
  resolveModel,
  type AgentDefinition,
  type Environment,
} from "@troupe/agents";

/** The model an agent uses, as `troupe dev`'s banner and its state file show it. */
export interface AgentModel {
  readonly agent: string;
  /**
   * The model spec (`openai:gpt-4.1-mini`), or `<provider>:<model id>` of a
   * model object (the demo's `troupe.scripted:demo-agent`).
   */
  readonly model: string;
  /** The fallback chain after `model`, as spec strings or `<provider>:<model id>` (docs/decisions/0042); absent when none. */
  readonly fallbackModels?: readonly string[];
}

/**
 * Resolves the model of each agent as a host will for a session that names no
 * model (the agent's, else `TROUPE_MODEL`, else the scripted demo), so that a
 * missing provider key stops `troupe dev` / `troupe host` at start rather than
 * failing the first message (docs/decisions/0019); the models of a fallback chain too, so a
 * missing key of a fallback is not found first during an outage of the primary.
 * Resolving makes no network call.
 *
 * @param agents - the agents served.
 * @param env - where keys and `TROUPE_MODEL` are read, as the hosts will.
 * @returns one entry per agent, in order.
 * @throws ModelNotConfiguredError whose message names the agent, the model and
 *   (for `missing_api_key`) the variable to set.
 */
export function agentModels(agents: readonly AgentDefinition[], env: Environment): AgentModel[] {
  return agents.map((agent) => {
    try {
      const model = resolveModel(agent.model, env);
      const spec = typeof agent.model === "string" ? agent.model.trim() : undefined;
      const fallbacks = (agent.fallbackModels ?? []).map((fallback) => {
        const resolved = resolveModel(fallback, env);
        return typeof fallback === "string"
          ? fallback.trim()
          : `${resolved.provider}:${resolved.modelId}`;
      });
      return {
        agent: agent.name,
        model:
          spec ??
          (agent.model === undefined ? nonEmpty(env["TROUPE_MODEL"]) : undefined) ??
          `${model.provider}:${model.modelId}`,
        ...(fallbacks.length === 0 ? {} : { fallbackModels: fallbacks }),
      };
    } catch (error) {
      if (!(error instanceof ModelNotConfiguredError)) throw error;
      const fromVariable = error.spec === nonEmpty(env["TROUPE_MODEL"]);
      const message =
        error.reason === "missing_api_key" && error.variable !== undefined
          ? `Agent "${agent.name}" uses the model "${error.spec}", which needs ${error.variable}: ` +
            `set it (export ${error.variable}=…) and start again` +
            (fromVariable ? ", or unset TROUPE_MODEL for the scripted demo model." : ".")
          : `Agent "${agent.name}": ${error.message}`;
      throw new ModelNotConfiguredError(error.spec, error.reason, message, error.variable);
    }
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
