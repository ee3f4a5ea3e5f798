import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";
import { toolExecutionStatusSchema } from "../tool-call-status.js";
import { toolEffectClassSchema } from "../tool-effect-class.js";
import { toolPolicyDecisionSchema } from "../tool-policy.js";
import { mediaRefSchema } from "../media-ref.js";

/**
 * `tool.start` — internal, run actor (`run/<sessionId>`) → tool call actor
 * (`tool/<toolActorId(sessionId, runId, toolCallId)>`): execute one tool call of
 * a model response. `input` is the raw arguments text the model produced (the
 * host parses and validates it against the tool's schema); `effectClass` comes
 * from the agent's tool definition (`unclassified` for a tool it does not know).
 * `decision` is the tool policy's decision for the call (absent = `allow`);
 * `approvalTimeoutMs` how long an `ask` waits for a settlement before it counts
 * as denied (absent = 24 h). `subagent` marks a delegation: the agent (as
 * the host registered it) that runs the task in a session of its own instead
 * of a `tool.execute`; `parentSessionId` is set when the calling run is itself
 * a subagent's (its events belong on that session's subjects, and it may not
 * delegate further).
 *
 * Shape: `{ sessionId: string, runId: string, toolCallId: string, toolName: string, input: string, effectClass: ToolEffectClass, agent?: string, decision?: ToolPolicyDecision, approvalTimeoutMs?: number (whole, 1+), subagent?: string, parentSessionId?: string }`.
 */
export const toolStartSchema = z.object({
  sessionId: actorIdSchema,
  runId: identifierSchema,
  toolCallId: identifierSchema,
  toolName: z.string().min(1),
  input: z.string(),
  effectClass: toolEffectClassSchema,
  agent: z.string().min(1).optional(),
  decision: toolPolicyDecisionSchema.optional(),
  approvalTimeoutMs: z.number().int().min(1).optional(),
  subagent: z.string().min(1).optional(),
  parentSessionId: actorIdSchema.optional(),
});
/** Payload of `tool.start`. */
export type ToolStart = z.infer<typeof toolStartSchema>;

/**
 * `tool.finished` — internal, tool call actor → run actor (`run/<sessionId>`):
 * the call ended. `content` is what the model reads as the call's result (the
 * tool's output as text, or why it failed); `truncated` is true when the host
 * shortened it to the configured limit.
 *
 * Shape: `{ runId: string, toolCallId: string, status: ToolExecutionStatus, content: string, truncated?: boolean, media?: MediaRef[] }`.
 */
export const toolFinishedSchema = z.object({
  runId: identifierSchema,
  toolCallId: identifierSchema,
  status: toolExecutionStatusSchema,
  content: z.string(),
  truncated: z.boolean().optional(),
  /** Media references the tool returned (docs/decisions/0045). */
  media: z.array(mediaRefSchema).optional(),
});
/** Payload of `tool.finished`. */
export type ToolFinished = z.infer<typeof toolFinishedSchema>;

/**
 * `tool.cancel` — internal, run actor → tool call actor: the run was cancelled;
 * stop the call. The run does not wait for an answer (it records the call as
 * `cancelled` itself).
 *
 * Shape: `{ runId: string, toolCallId: string }`.
 */
export const toolCancelSchema = z.object({
  runId: identifierSchema,
  toolCallId: identifierSchema,
});
/** Payload of `tool.cancel`. */
export type ToolCancel = z.infer<typeof toolCancelSchema>;
