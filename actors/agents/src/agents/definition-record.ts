import { createHash } from "node:crypto";
import { asSchema } from "ai";
import { z } from "zod";
import { toolEffectClassSchema } from "@troupe/protocol";
import type { AgentDefinitionPin } from "@troupe/protocol";
import type { Environment, ModelSpec } from "@troupe/models";
import { canonicalJson } from "@troupe/models/internal";
import type { AgentDefinition } from "./agent-definition.js";
import { modelLabelOf } from "./model-chain.js";
import { subagentInputSchema } from "./model-tools.js";

// What a run is pinned to (docs/decisions/0055): the parts of an agent
// definition that make up a model request — instructions, model chain, the
// tools' names, descriptions and input schemas, subagents, limits and the tool
// policy — as plain data with a content hash. Code (tool functions, model
// objects) is not data: a record names models by label and holds JSON Schemas.

/** Version of the record's layout; part of what is hashed. */
export const DEFINITION_RECORD_FORMAT = 1;

const jsonObjectSchema = z.record(z.string(), z.unknown());

/**
 * The stored record of one agent definition.
 *
 * Shape: `{ format: 1, name, version?, instructions, models: ({ spec } |
 * { object: "<provider>:<modelId>" } | null)[] (a spec string, an AI SDK model
 * object by its label, or null = the host's default model), tools: { name, description, inputSchema
 * (JSON Schema), effectClass }[] (sorted by name), subagents: { name,
 * description, inputSchema }[] (sorted), limits: { maxModelCalls,
 * modelIdleTimeoutMs, modelCallTimeoutMs } (ms), toolPolicy: { allow, ask,
 * deny }, approvalTimeoutMs (ms) }`.
 */
export const agentDefinitionRecordSchema = z.object({
  format: z.literal(DEFINITION_RECORD_FORMAT),
  name: z.string().min(1),
  version: z.string().min(1).max(64).optional(),
  instructions: z.string(),
  models: z
    .array(
      z.union([
        z.object({ spec: z.string().min(1) }),
        z.object({ object: z.string().min(1) }),
        z.null(),
      ]),
    )
    .min(1),
  tools: z.array(
    z.object({
      name: z.string().min(1),
      description: z.string(),
      inputSchema: jsonObjectSchema,
      effectClass: toolEffectClassSchema,
    }),
  ),
  subagents: z.array(
    z.object({ name: z.string().min(1), description: z.string(), inputSchema: jsonObjectSchema }),
  ),
  limits: z.object({
    maxModelCalls: z.number().int().min(1),
    modelIdleTimeoutMs: z.number().int().min(1),
    modelCallTimeoutMs: z.number().int().min(1),
  }),
  toolPolicy: z.object({
    allow: z.array(z.string()),
    ask: z.array(z.string()),
    deny: z.array(z.string()),
  }),
  approvalTimeoutMs: z.number().int().min(1),
});
/** See {@link agentDefinitionRecordSchema}. */
export type AgentDefinitionRecord = z.infer<typeof agentDefinitionRecordSchema>;

/** A record with its content hash. */
export interface HashedDefinitionRecord {
  readonly record: AgentDefinitionRecord;
  /** SHA-256 of {@link canonicalJson} of the record, 64 lowercase hex digits. */
  readonly hash: string;
}

/**
 * The record of a definition and its hash. The same definition gives the same
 * hash on every host and in every process (keys sorted at every level, tools and
 * subagents by name). An MCP tool is part of it as its server listed it.
 *
 * @param agent - the definition as the host serves it (with its MCP tools).
 * @param env - the environment model labels are read with (a model left to the
 *   host's default is `null`, whatever `TROUPE_MODEL` says).
 * @returns the record and its hash.
 */
export async function definitionRecordOf(
  agent: AgentDefinition,
  env: Environment,
): Promise<HashedDefinitionRecord> {
  const chain: readonly (ModelSpec | undefined)[] = [agent.model, ...(agent.fallbackModels ?? [])];
  const tools = await Promise.all(
    Object.values(agent.tools).map(async (tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: (tool.inputJsonSchema ??
        (await Promise.resolve(asSchema(tool.inputSchema).jsonSchema))) as Record<string, unknown>,
      effectClass: tool.effectClass,
    })),
  );
  const subagentSchema = (await Promise.resolve(
    asSchema(subagentInputSchema).jsonSchema,
  )) as Record<string, unknown>;
  const record: AgentDefinitionRecord = {
    format: DEFINITION_RECORD_FORMAT,
    name: agent.name,
    ...(agent.version === undefined ? {} : { version: agent.version }),
    instructions: agent.instructions,
    models: chain.map((spec) =>
      spec === undefined
        ? null
        : typeof spec === "string"
          ? { spec: spec.trim() }
          : { object: modelLabelOf(spec, env) },
    ),
    tools: tools.sort(byName),
    subagents: Object.entries(agent.subagents)
      .map(([name, subagent]) => ({
        name,
        description: subagent.description,
        inputSchema: subagentSchema,
      }))
      .sort(byName),
    limits: {
      maxModelCalls: agent.limits.maxModelCalls,
      modelIdleTimeoutMs: agent.limits.modelIdleTimeoutMs,
      modelCallTimeoutMs: agent.limits.modelCallTimeoutMs,
    },
    toolPolicy: {
      allow: [...agent.toolPolicy.allow],
      ask: [...agent.toolPolicy.ask],
      deny: [...agent.toolPolicy.deny],
    },
    approvalTimeoutMs: agent.approvalTimeoutMs,
  };
  return { record, hash: hashOf(record) };
}

/**
 * The SHA-256 of a record's canonical JSON.
 *
 * @param record - a definition record.
 * @returns 64 lowercase hex digits (of the cassettes' canonical JSON: keys sorted at every level).
 */
export function hashOf(record: AgentDefinitionRecord): string {
  return createHash("sha256").update(canonicalJson(record)).digest("hex");
}

/** The pin of a hashed record: `{ hash, version? }`. */
export function pinOf({ record, hash }: HashedDefinitionRecord): AgentDefinitionPin {
  return { hash, ...(record.version === undefined ? {} : { version: record.version }) };
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
