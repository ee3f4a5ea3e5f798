import { z } from "zod";
import { wireErrorSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";
import { toolEffectClassSchema } from "../tool-effect-class.js";
import { mediaRefSchema } from "../media-ref.js";

const toolCallFields = {
  toolCallId: identifierSchema,
  runId: identifierSchema,
  tool: z.string().min(1),
};

/**
 * `tool.started` — a tool call began executing (after validation, policy and any
 * approval). `tool` is the tool's name; `effectClass` the class its definition
 * declares (`unclassified` for a tool the agent does not know). `attempt`, when
 * present, is the call's *execution attempt*: the n-th execution of the tool
 * under the call's idempotency record (1+). `arguments` (a field added after
 * the first release) is the call's input as the model gave it,
 * parsed from JSON (the raw text when it is not JSON), as in
 * `tool.approval_requested`; the HTTP gateway shows it as the tool part's input.
 *
 * Shape: `{ toolCallId: string, runId: string, tool: string, attempt?: number (1+), effectClass?: ToolEffectClass, arguments?: unknown }`.
 */
export const toolStartedSchema = z.object({
  ...toolCallFields,
  attempt: z.number().int().min(1).optional(),
  effectClass: toolEffectClassSchema.optional(),
  arguments: z.unknown().optional(),
});
/** Payload of `tool.started`. */
export type ToolStarted = z.infer<typeof toolStartedSchema>;

/**
 * `tool.progress` — a running tool call reported progress (an MCP server's
 * `notifications/progress`, or a local tool's `reportProgress`).
 * Transient like `run.delta`: published while the call runs, not journaled,
 * kept in the deltas stream for its retention; at most one per call every
 * 250 ms (the last report of a burst is kept). `progress` grows with each
 * report; `total` is the expected end when the tool knows it (same unit);
 * `index` counts the call's published reports from 0.
 *
 * Shape: `{ toolCallId: string, runId: string, tool: string, progress: number, total?: number, message?: string, index: number (0+) }`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
export const toolProgressSchema = z.object({
  ...toolCallFields,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
  index: z.number().int().min(0),
});
/** Payload of `tool.progress`. */
export type ToolProgress = z.infer<typeof toolProgressSchema>;

/**
 * `tool.completed` — a tool call returned; `output` is its result as plain data,
 * `content` the result as the model reads it (text), `truncated` true when that
 * text was shortened to the configured limit, `media` the references of images
 * or files the tool returned (the bytes are in the media Object Store).
 *
 * Shape: `{ toolCallId: string, runId: string, tool: string, output?: unknown, content?: string, truncated?: boolean, media?: MediaRef[] }`.
 */
export const toolCompletedSchema = z.object({
  ...toolCallFields,
  output: z.unknown().optional(),
  content: z.string().optional(),
  truncated: z.boolean().optional(),
  media: z.array(mediaRefSchema).optional(),
});
/** Payload of `tool.completed`. */
export type ToolCompleted = z.infer<typeof toolCompletedSchema>;

/**
 * `tool.failed` — a tool call failed (after its retries, if any); the model is
 * told. `error.code` is `invalid_arguments` when the call never ran because its
 * arguments (or its tool) were not valid, `tool_failed` when the tool threw, or
 * the host's code when the call's effect failed (`cancelled`, `internal`, …).
 *
 * Shape: `{ toolCallId: string, runId: string, tool: string, error: WireError }`.
 */
export const toolFailedSchema = z.object({
  ...toolCallFields,
  error: wireErrorSchema,
});
/** Payload of `tool.failed`. */
export type ToolFailed = z.infer<typeof toolFailedSchema>;

/**
 * `tool.outcome_unknown` — a call that runs at most once may have started but left
 * no result (the host died); it is reported to the model as such, never repeated.
 *
 * Shape: `{ toolCallId: string, runId: string, tool: string, reason?: string }`.
 */
export const toolOutcomeUnknownSchema = z.object({
  ...toolCallFields,
  reason: z.string().optional(),
});
/** Payload of `tool.outcome_unknown`. */
export type ToolOutcomeUnknown = z.infer<typeof toolOutcomeUnknownSchema>;

/**
 * `tool.approval_requested` — a tool call waits for `tool.approve` or `tool.deny`.
 *
 * Shape: `{ toolCallId: string, tool: string, arguments: unknown, runId: string, sessionId?: string }`.
 * `sessionId` is the session that owns the call: for a subagent's call (whose
 * events appear under the parent session's subjects) the subagent's session
 * (`sub-…`); pass it back in `tool.approve` / `tool.deny`.
 */
export const toolApprovalRequestedSchema = z.object({
  toolCallId: identifierSchema,
  tool: z.string().min(1),
  arguments: z.unknown(),
  runId: identifierSchema,
  sessionId: identifierSchema.optional(),
});
/** Payload of `tool.approval_requested`. */
export type ToolApprovalRequested = z.infer<typeof toolApprovalRequestedSchema>;

/**
 * `tool.approval_settled` — the wait ended. The first settlement wins; a later
 * approve or deny is answered with `alreadySettled: true` and the first decision.
 *
 * Shape: `{ toolCallId: string, decision: "approved" | "denied" | "timed_out", alreadySettled?: boolean }`.
 */
export const toolApprovalSettledSchema = z.object({
  toolCallId: identifierSchema,
  decision: z.enum(["approved", "denied", "timed_out"]),
  alreadySettled: z.boolean().optional(),
});
/** Payload of `tool.approval_settled`. */
export type ToolApprovalSettled = z.infer<typeof toolApprovalSettledSchema>;
