import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import {
  commandNoteSchema,
  commandTextSchema,
  identifierSchema,
  toolCallIdSchema,
} from "../field-schemas.js";
import { toolPolicyOverridesSchema, toolPolicySchema } from "../tool-policy.js";
import { mediaRefListSchema } from "../media-ref.js";
import { priorityClassSchema } from "../priority-class.js";

// The public commands a session accepts. Their rules are one set:
// - every payload is a strict object: an unknown field is refused by name
//   (`message.rejected` with a zod `unrecognized_keys` issue), never dropped;
// - texts are `commandTextSchema` (not blank, at most MAX_TEXT_LENGTH characters),
//   notes and reasons `commandNoteSchema`;
// - ids the runtime turns into subjects, keys or lookups are actor-id-safe
//   (`actorIdSchema`: session ids, run ids `r<n>`, client message ids, agent
//   names); tool call and question ids, which a model chooses, are
//   `toolCallIdSchema`.

/**
 * `user.message` — a user turn for a session. The only required field is `text`.
 *
 * Shape: `{ text: string (1 to 262,144 characters, not blank), clientMessageId?: string,
 * agent?: string, metadata?: Record<string, unknown>, attachments?: MediaRef[],
 * priority?: "interactive" | "default" | "batch" }`; no other field.
 * `clientMessageId` (same charset as actor ids, 1 to 128 characters) lets a client
 * retry a publish safely: the session admits each id once and answers a repeat with
 * `message.duplicate`. `agent` (an actor-id-safe name) names the agent
 * configuration to run, when the deployment has several. `metadata` is kept with
 * the message, uninterpreted.
 * `attachments` (docs/capabilities/media.md): 1 to 16 `MediaRef`s
 * (`{ digest, mediaType, size, name? }`) of images or files already stored in
 * the deployment's media Object Store; the bytes never travel in the message.
 * `priority` (docs/decisions/0057): the scheduling class of the run the message
 * starts (and of its model and tool calls); absent = `default`. Publishers also
 * set the `Troupe-Priority` header (`PRIORITY_HEADER`) so hosts order the
 * message itself before decoding it; `@troupe/client` does both.
 */
export const userMessageSchema = z.strictObject({
  text: commandTextSchema,
  clientMessageId: actorIdSchema.optional(),
  agent: actorIdSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  attachments: mediaRefListSchema.optional(),
  priority: priorityClassSchema.optional(),
});
/** Payload of `user.message`. */
export type UserMessage = z.infer<typeof userMessageSchema>;

/**
 * `run.cancel` — stop a run. Without `runId`, the session's current run.
 *
 * Shape: `{ runId?: string (actor-id-safe, e.g. "r3"), reason?: string (up to 262,144 characters) }`.
 */
export const runCancelSchema = z.strictObject({
  runId: actorIdSchema.optional(),
  reason: commandNoteSchema.optional(),
});
/** Payload of `run.cancel`. */
export type RunCancel = z.infer<typeof runCancelSchema>;

/**
 * `run.steer` — add guidance to a run in progress; the model sees `text` at its
 * next call. Without `runId`, the session's current run.
 *
 * Shape: `{ text: string (1 to 262,144 characters, not blank), runId?: string (actor-id-safe) }`.
 * A blank text is refused (`message.rejected`, issue at `payload.text`): it would
 * cost a model call and replace the answer with nothing new (docs/decisions/0012).
 */
export const runSteerSchema = z.strictObject({
  text: commandTextSchema,
  runId: actorIdSchema.optional(),
});
/** Payload of `run.steer`. */
export type RunSteer = z.infer<typeof runSteerSchema>;

/**
 * `tool.approve` — approve a tool call that waits for approval
 * (`tool.approval_requested`). The first settlement wins.
 *
 * Shape: `{ toolCallId: string (toolCallIdSchema), note?: string, sessionId?: string (actor id), commandId?: string }`.
 * `sessionId` (optional): the session that owns the call, as `tool.approval_requested`
 * reported it. A session forwards a message naming one of its subagents'
 * sessions (`sub-…`) there; absent = the session the message is sent to.
 * `commandId` (optional): set by a session that forwards the command (to its
 * tool call or a subagent's session): the envelope id of the client's original
 * command, which the `command.settled` verdict names. Clients leave it out.
 */
export const toolApproveSchema = z.strictObject({
  toolCallId: toolCallIdSchema,
  note: commandNoteSchema.optional(),
  sessionId: actorIdSchema.optional(),
  commandId: identifierSchema.optional(),
});
/** Payload of `tool.approve`. */
export type ToolApprove = z.infer<typeof toolApproveSchema>;

/**
 * `tool.deny` — deny a tool call that waits for approval; the model is told, with
 * `reason` when given. The first settlement wins.
 *
 * Shape: `{ toolCallId: string (toolCallIdSchema), reason?: string, sessionId?: string (actor id), commandId?: string }`.
 * `sessionId` (optional): the session that owns the call, as `tool.approval_requested`
 * reported it. A session forwards a message naming one of its subagents'
 * sessions (`sub-…`) there; absent = the session the message is sent to.
 * `commandId` (optional): set by a session that forwards the command (to its
 * tool call or a subagent's session): the envelope id of the client's original
 * command, which the `command.settled` verdict names. Clients leave it out.
 */
export const toolDenySchema = z.strictObject({
  toolCallId: toolCallIdSchema,
  reason: commandNoteSchema.optional(),
  sessionId: actorIdSchema.optional(),
  commandId: identifierSchema.optional(),
});
/** Payload of `tool.deny`. */
export type ToolDeny = z.infer<typeof toolDenySchema>;

/**
 * `question.answer` — answer a question the agent asked (`question.asked`).
 *
 * Shape: `{ questionId: string (toolCallIdSchema), text: string (1 to 262,144 characters,
 * not blank), sessionId?: string (actor id), commandId?: string }`.
 * `sessionId` (optional): the session that owns the call, as `question.asked`
 * reported it. A session forwards a message naming one of its subagents'
 * sessions (`sub-…`) there; absent = the session the message is sent to.
 * `commandId` (optional): set by a session that forwards the command (to its
 * tool call or a subagent's session): the envelope id of the client's original
 * command, which the `command.settled` verdict names. Clients leave it out.
 */
export const questionAnswerSchema = z.strictObject({
  questionId: toolCallIdSchema,
  text: commandTextSchema,
  sessionId: actorIdSchema.optional(),
  commandId: identifierSchema.optional(),
});
/** Payload of `question.answer`. */
export type QuestionAnswer = z.infer<typeof questionAnswerSchema>;

/**
 * What a session does with a user message that arrives while a run is active:
 * `enqueue` (default: run it after the active run), `reject` (refuse it with
 * `message.rejected`), `interrupt` (cancel the active run, then run it), `steer`
 * (hand its text to the active run at the run's next safe point).
 */
export const sessionPolicySchema = z.enum(["enqueue", "reject", "interrupt", "steer"]);
/** See {@link sessionPolicySchema}. */
export type SessionPolicy = z.infer<typeof sessionPolicySchema>;

/**
 * `session.configure` — change the session's settings for later runs; the active
 * run keeps the settings it started with. Absent fields stay as they are.
 *
 * Shape: `{ policy?: SessionPolicy, model?: string (1 to 256 characters, no whitespace),
 * maxModelCalls?: number (whole, 1+), toolPolicy?: ToolPolicy }`; no other field, in
 * `toolPolicy` neither.
 * `model` names the model the agent should use (the host's syntax, e.g.
 * `openai:gpt-4o-mini`); `maxModelCalls` caps the model calls of one run (past
 * it the model is asked once more, without tools). `toolPolicy` adds tool
 * patterns to ask for or deny in later runs, on top of the agent's policy and of
 * earlier `session.configure`s: a session's tool policy only gets safer, so a
 * non-empty `toolPolicy.allow` (an attempt to loosen) makes the session refuse
 * the whole message (`message.rejected`, code `tool_policy_loosening`).
 */
export const sessionConfigureSchema = z.strictObject({
  policy: sessionPolicySchema.optional(),
  model: z
    .string()
    .min(1)
    .max(256)
    .regex(/^\S+$/u, { error: "Expected a model spec without whitespace." })
    .optional(),
  maxModelCalls: z.number().int().min(1).optional(),
  toolPolicy: z.strictObject(toolPolicySchema.shape).optional(),
});
/** Payload of `session.configure`. */
export type SessionConfigure = z.infer<typeof sessionConfigureSchema>;

/**
 * The settings a session runs with beyond its agent's defaults: what its
 * `session.configure`s set (accumulated; `toolPolicy` without `allow`), or, for
 * a fork, what the source had at the fork point (docs/decisions/0043). Carried by
 * `command.settled` of an applied `session.configure` and by `session.forked`,
 * so that a fork can start with them.
 *
 * Shape: `{ policy?: SessionPolicy, model?: string, maxModelCalls?: number (whole, 1+),
 * toolPolicy?: { ask?: string[], deny?: string[] } }`.
 */
export const sessionSettingsSchema = z.object({
  policy: sessionPolicySchema.optional(),
  model: sessionConfigureSchema.shape.model,
  maxModelCalls: z.number().int().min(1).optional(),
  toolPolicy: toolPolicyOverridesSchema.optional(),
});
/** See {@link sessionSettingsSchema}. */
export type SessionSettings = z.infer<typeof sessionSettingsSchema>;

/**
 * `session.close` — end the session: an active run is cancelled first; afterwards
 * the session refuses new messages (`message.rejected`) and emits `session.closed`.
 *
 * Shape: `{}`; any field is refused.
 */
export const sessionCloseSchema = z.strictObject({});
/** Payload of `session.close`. */
export type SessionClose = z.infer<typeof sessionCloseSchema>;
