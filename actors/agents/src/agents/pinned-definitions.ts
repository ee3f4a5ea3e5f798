import { z } from "zod";
import { TroupeError } from "@troupe/protocol";
import type { AgentDefinitionPin, UsedAgentDefinition } from "@troupe/protocol";
import type { Environment, ModelSpec } from "@troupe/models";
import { DEFAULT_MAX_TOOL_RESULT_BYTES, DEFAULT_TOOL_TIMEOUT_MS } from "@troupe/tools";
import type { ToolDefinition } from "@troupe/tools/internal";
import type { AgentDefinition, SubagentDefinition } from "./agent-definition.js";
import {
  definitionRecordOf,
  pinOf,
  type AgentDefinitionRecord,
  type HashedDefinitionRecord,
} from "./definition-record.js";
import type { AgentDefinitionStore } from "./definition-store.js";
import { modelLabelOf } from "./model-chain.js";

/** How many pinned definitions other than the served ones a host keeps in memory. */
const MAX_CACHED_PINNED = 64;

/**
 * A run is pinned to an agent definition this host cannot serve
 * (docs/decisions/0055): the definition store does not hold its record, or the
 * record names an AI SDK model object the served definition does not have.
 * Code `definition_unavailable`, not retryable: the run fails with it, visibly,
 * rather than continue under another definition.
 */
export class DefinitionUnavailableError extends TroupeError {
  /**
   * @param agentName - the run's agent.
   * @param pin - the definition the run is pinned to.
   * @param reason - what is missing, in words.
   */
  constructor(agentName: string, pin: AgentDefinitionPin, reason: string) {
    super(
      "definition_unavailable",
      `The run is pinned to definition ${pin.hash.slice(0, 12)}` +
        `${pin.version === undefined ? "" : ` (version ${pin.version})`} of agent "${agentName}", ` +
        `which this host cannot serve: ${reason}.`,
      { retryable: false, details: { agentName, hash: pin.hash, version: pin.version } },
    );
    this.name = "DefinitionUnavailableError";
  }
}

/** The definition a model call is made under, and what its output reports. */
export interface ResolvedDefinition {
  /** The served definition, or a view of the pinned record over it. */
  readonly agent: AgentDefinition;
  /** The output's `definition`: the run's pin after this call. */
  readonly used: UsedAgentDefinition;
}

/**
 * Decides which agent definition a model call is made under
 * (docs/decisions/0055), from the definition the host serves and the run's pin:
 *
 * 1. no pin (a run's first call), or the pin is the served definition's hash →
 *    the served definition; the pin is its hash and version;
 * 2. the served definition declares `migrate.from` naming the pinned version →
 *    the served definition; the output reports `migratedFrom`;
 * 3. otherwise the pinned record, loaded from the store: its instructions, model
 *    chain, tool descriptions and input schemas, subagents, limits and tool
 *    policy, over the served definition's code (tool functions, MCP servers,
 *    media, context and budget settings) — or {@link DefinitionUnavailableError}.
 *
 * The served definition's record is written to the store before its first pin
 * is reported, so every host can load it.
 */
export class PinnedDefinitions {
  readonly #served = new WeakMap<AgentDefinition, Promise<HashedDefinitionRecord>>();
  readonly #pinned = new Map<string, Promise<AgentDefinition | undefined>>();

  /**
   * @param store - where records are written and read (Redis on a host).
   * @param env - the environment model labels are read with.
   */
  constructor(
    private readonly store: AgentDefinitionStore,
    private readonly env: Environment,
  ) {}

  /**
   * @param served - the definition the host serves for the run's agent.
   * @param pin - the run's pin (`model.call` input `definition`); undefined for a first call.
   * @param options - `migrate: false` serves the pin even where the served
   *   definition declares a migration from it (rendering a recorded call again).
   * @returns the definition to call under and the pin to report.
   * @throws DefinitionUnavailableError (`definition_unavailable`); TroupeError
   *   `effect_failed` (retryable) when the store cannot be reached.
   */
  async resolve(
    served: AgentDefinition,
    pin: AgentDefinitionPin | undefined,
    options: { readonly migrate?: boolean } = {},
  ): Promise<ResolvedDefinition> {
    const hashed = await this.#record(served).catch((error: unknown) => {
      throw storeFailure("write", served.name, error);
    });
    const current = pinOf(hashed);
    if (pin === undefined || pin.hash === hashed.hash) return { agent: served, used: current };
    const migrates = options.migrate !== false && pin.version !== undefined;
    if (migrates && served.migrate?.from.includes(pin.version!) === true) {
      return { agent: served, used: { ...current, migratedFrom: pin } };
    }
    const key = `${served.name}:${pin.hash}`;
    let view = this.#pinned.get(key);
    if (view === undefined) {
      view = this.store
        .load(served.name, pin.hash)
        .then((record) =>
          record === undefined ? undefined : pinnedView(served, record, pin, this.env),
        );
      this.#pinned.set(key, view);
      // A failed read is not kept; the oldest view goes past the bound.
      view.catch(() => this.#pinned.delete(key));
      if (this.#pinned.size > MAX_CACHED_PINNED) {
        this.#pinned.delete(this.#pinned.keys().next().value!);
      }
    }
    const agent = await view.catch((error: unknown) => {
      throw TroupeError.isInstance(error) ? error : storeFailure("read", served.name, error);
    });
    if (agent === undefined) {
      this.#pinned.delete(key);
      throw new DefinitionUnavailableError(
        served.name,
        pin,
        "the definition store holds no record of it (it was written by a host of another deployment, or the store lost it)",
      );
    }
    return { agent, used: pin };
  }

  /** The served definition's record, written to the store once per process. */
  #record(served: AgentDefinition): Promise<HashedDefinitionRecord> {
    let hashed = this.#served.get(served);
    if (hashed === undefined) {
      hashed = definitionRecordOf(served, this.env).then(async (record) => {
        await this.store.save(record);
        return record;
      });
      this.#served.set(served, hashed);
      // A record the store refused is written again by the next call.
      hashed.catch(() => this.#served.delete(served));
    }
    return hashed;
  }
}

/**
 * The definition store could not be reached: a retryable `effect_failed`, so
 * the run tries the call again (Redis may be restarting).
 */
function storeFailure(what: "read" | "write", agentName: string, cause: unknown): TroupeError {
  return new TroupeError(
    "effect_failed",
    `could not ${what} the definition record of agent "${agentName}" in the definition store`,
    { retryable: true, cause },
  );
}

/**
 * The pinned record as a definition over the served one: what the model call
 * reads from a definition comes from the record.
 *
 * @throws DefinitionUnavailableError for a model object the served definition does not have.
 */
function pinnedView(
  served: AgentDefinition,
  record: AgentDefinitionRecord,
  pin: AgentDefinitionPin,
  env: Environment,
): AgentDefinition {
  const objects = new Map<string, ModelSpec>();
  for (const spec of [
    served.model,
    ...(served.fallbackModels ?? []),
    served.context?.compactionModel,
  ]) {
    if (spec !== undefined && typeof spec !== "string") objects.set(modelLabelOf(spec, env), spec);
  }
  const chain = record.models.map((model): ModelSpec | undefined => {
    if (model === null) return undefined;
    if ("spec" in model) return model.spec;
    const object = objects.get(model.object);
    if (object === undefined) {
      throw new DefinitionUnavailableError(
        served.name,
        pin,
        `its model ${model.object} is a model object the served definition does not have`,
      );
    }
    return object;
  });
  const tools: Record<string, ToolDefinition> = {};
  for (const tool of record.tools) {
    const code = served.tools[tool.name];
    tools[tool.name] = Object.freeze({
      name: tool.name,
      description: tool.description,
      inputSchema: z.object({}),
      inputJsonSchema: tool.inputSchema,
      effectClass: tool.effectClass,
      timeoutMs: code?.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      maxResultBytes: code?.maxResultBytes ?? DEFAULT_MAX_TOOL_RESULT_BYTES,
      // The model call offers tools; the tool.execute handler runs the served code.
      execute: () =>
        Promise.reject(new Error(`tool ${tool.name} of a pinned definition is not executable`)),
    });
  }
  const subagents: Record<string, SubagentDefinition> = {};
  for (const subagent of record.subagents) {
    const existing = served.subagents[subagent.name];
    subagents[subagent.name] = Object.freeze({
      description: subagent.description,
      agent: existing?.agent ?? served,
      tools: existing?.tools ?? { deny: [], allow: undefined },
    });
  }
  const [primary, ...fallbacks] = chain;
  return Object.freeze({
    ...served,
    instructions: record.instructions,
    version: record.version,
    model: primary,
    // Only a chain's primary can be the host's default (a record's null).
    fallbackModels: Object.freeze(fallbacks.filter((spec) => spec !== undefined)),
    tools: Object.freeze(tools),
    subagents: Object.freeze(subagents),
    limits: { ...served.limits, ...record.limits },
    toolPolicy: record.toolPolicy,
    approvalTimeoutMs: record.approvalTimeoutMs,
  });
}
