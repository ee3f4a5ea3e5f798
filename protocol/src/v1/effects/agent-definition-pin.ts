import { z } from "zod";

/**
 * The agent definition a run is pinned to (docs/decisions/0055): the SHA-256
 * of its canonical record (instructions, model chain, tool names, descriptions
 * and input schemas, subagents, limits, tool policy) and the agent's declared
 * version. A run's first model call pins it; its later calls are made under the
 * same definition on any host, even one serving a newer one.
 *
 * Shape: `{ hash: 64 lowercase hex digits, version?: 1 to 64 characters }`.
 */
export const agentDefinitionPinSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 as 64 lowercase hex digits"),
  version: z.string().min(1).max(64).optional(),
});
/** See {@link agentDefinitionPinSchema}. */
export type AgentDefinitionPin = z.infer<typeof agentDefinitionPinSchema>;

/**
 * The definition a model call was made under, as its output reports it: the
 * pin, plus `migratedFrom` when the call moved the run from an older pinned
 * version onto this one through the agent's declared `migrate`.
 *
 * Shape: `{ hash, version?, migratedFrom?: { hash, version? } }`.
 */
export const usedAgentDefinitionSchema = agentDefinitionPinSchema.extend({
  migratedFrom: agentDefinitionPinSchema.optional(),
});
/** See {@link usedAgentDefinitionSchema}. */
export type UsedAgentDefinition = z.infer<typeof usedAgentDefinitionSchema>;
