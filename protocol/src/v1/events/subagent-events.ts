import { z } from "zod";
import { actorAddressTextSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";
import { usageSchema } from "./run-events.js";

/**
 * `subagent.started` — a run delegated a task to a subagent.
 *
 * Shape: `{ subagent: "kind/id", runId: string, task: string, agent?: string }`;
 * `subagent` is the subagent's address, `runId` the delegating run.
 */
export const subagentStartedSchema = z.object({
  subagent: actorAddressTextSchema,
  runId: identifierSchema,
  task: z.string(),
  agent: z.string().min(1).optional(),
});
/** Payload of `subagent.started`. */
export type SubagentStarted = z.infer<typeof subagentStartedSchema>;

/**
 * `subagent.completed` — a subagent finished its task; `text` is its answer.
 *
 * Shape: `{ subagent: "kind/id", runId: string, text: string, usage?: Usage }`.
 */
export const subagentCompletedSchema = z.object({
  subagent: actorAddressTextSchema,
  runId: identifierSchema,
  text: z.string(),
  usage: usageSchema.optional(),
});
/** Payload of `subagent.completed`. */
export type SubagentCompleted = z.infer<typeof subagentCompletedSchema>;
