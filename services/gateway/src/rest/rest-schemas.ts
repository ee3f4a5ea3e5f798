import { z } from "@hono/zod-openapi";
import {
  actorIdSchema,
  commandNoteSchema,
  commandTextSchema,
  eventEnvelopeSchema,
  runCancelSchema,
  runSteerSchema,
  toolCallIdSchema,
  userMessageSchema,
} from "@troupe/protocol";

// Schemas made by @troupe/protocol (loaded before @hono/zod-openapi extends
// zod) have no `.openapi()`: they are named with zod's own `.meta()`, which
// the OpenAPI generator reads too.
//
// Request and response bodies of the `/v1` REST routes, built from
// the protocol's schemas so that the gateway refuses exactly what a session
// would refuse, before anything is published. Each is named in the OpenAPI
// document (`/v1/openapi.json`).

/** Path parameter `id`: a session id (`actorIdSchema`: 1 to 128 of `[A-Za-z0-9_-]`). */
export const sessionParamsSchema = z.object({
  id: actorIdSchema.meta({ param: { name: "id", in: "path" }, example: "demo-1" }),
});

/**
 * The OpenAPI `pattern` of a tool call or question id: the protocol's rule
 * (no whitespace, no control character) without the `u` flag JSON Schema has
 * no place for (`\p{Cc}` is U+0000–U+001F and U+007F–U+009F). The generator
 * would otherwise write the regex's flags into the pattern.
 */
const TOOL_CALL_ID_PATTERN = "^[^\\s\\u0000-\\u001f\\u007f-\\u009f]+$";

/** Path parameters of `POST /v1/sessions/:id/approvals/:toolCallId`. */
export const approvalParamsSchema = sessionParamsSchema.extend({
  toolCallId: toolCallIdSchema.meta({
    param: { name: "toolCallId", in: "path" },
    example: "call-2-1",
    pattern: TOOL_CALL_ID_PATTERN,
  }),
});

/** Path parameters of `POST /v1/sessions/:id/questions/:questionId`. */
export const questionParamsSchema = sessionParamsSchema.extend({
  questionId: toolCallIdSchema.meta({
    param: { name: "questionId", in: "path" },
    example: "call-2-1",
    pattern: TOOL_CALL_ID_PATTERN,
  }),
});

/** Body of `POST /v1/sessions/:id/messages`: the protocol's `user.message` payload. */
export const sendMessageBodySchema = userMessageSchema.meta({ id: "UserMessage" });
/** Body of `POST /v1/sessions/:id/cancel`: the protocol's `run.cancel` payload (may be absent). */
export const cancelBodySchema = runCancelSchema.meta({ id: "CancelRun" });
/** Body of `POST /v1/sessions/:id/steer`: the protocol's `run.steer` payload. */
export const steerBodySchema = runSteerSchema.meta({ id: "SteerRun" });

/**
 * Body of `POST /v1/sessions/:id/approvals/:toolCallId`.
 *
 * Shape: `{ decision: "approve" | "deny", note?: string (kept with an approval), reason?: string (told to the model on a denial), subagentSessionId?: string (the `sub-…` session owning the call) }`.
 */
export const approvalBodySchema = z
  .strictObject({
    decision: z.enum(["approve", "deny"]),
    note: commandNoteSchema.optional(),
    reason: commandNoteSchema.optional(),
    subagentSessionId: actorIdSchema.optional(),
  })
  .openapi("ApprovalDecision");

/**
 * Body of `POST /v1/sessions/:id/questions/:questionId`.
 *
 * Shape: `{ text: string (not blank), subagentSessionId?: string }`.
 */
export const answerBodySchema = z
  .strictObject({ text: commandTextSchema, subagentSessionId: actorIdSchema.optional() })
  .openapi("QuestionAnswer");

/** `SendReceipt` of `@troupe/client`: the 202 answer of `POST …/messages`. */
export const sendReceiptSchema = z
  .object({
    sessionId: z.string(),
    messageId: z.string(),
    clientMessageId: z.string(),
    streamSequence: z.number().int(),
    duplicate: z.boolean(),
  })
  .openapi("SendReceipt");

/** `CommandReceipt` of `@troupe/client`: the 202 answer of a command (`messageId` names its verdict). */
export const commandReceiptSchema = z
  .object({ sessionId: z.string(), messageId: z.string(), streamSequence: z.number().int() })
  .openapi("CommandReceipt");

/** See `PendingApproval` (http/gateway-context.ts). */
export const pendingApprovalSchema = z
  .object({
    sessionId: z.string(),
    ownerSessionId: z.string(),
    toolCallId: z.string(),
    tool: z.string(),
    arguments: z.unknown(),
    runId: z.string(),
    sequence: z.number().int(),
    requestedAt: z.string(),
  })
  .openapi("PendingApproval");

/** See `OpenQuestion` (http/gateway-context.ts). */
export const openQuestionSchema = z
  .object({
    sessionId: z.string(),
    ownerSessionId: z.string(),
    questionId: z.string(),
    runId: z.string(),
    text: z.string(),
    choices: z.array(z.string()).optional(),
    sequence: z.number().int(),
    askedAt: z.string(),
  })
  .openapi("OpenQuestion");

const runInProgressSchema = z.object({ runId: z.string(), sequence: z.number().int() });
const summaryFields = {
  sessionId: z.string(),
  state: z.enum(["running", "idle", "closed"]),
  agent: z.string().optional(),
  lastRunId: z.string().optional(),
  runInProgress: runInProgressSchema.optional(),
  lastEventAt: z.string(),
  lastSequence: z.number().int(),
};

/** See `SessionSummary` (http/gateway-context.ts): an item of `GET /v1/sessions`. */
export const sessionSummarySchema = z
  .object({
    ...summaryFields,
    pendingApprovals: z.number().int(),
    openQuestions: z.number().int(),
  })
  .openapi("SessionSummary");

/** `GET /v1/sessions/:id`: the summary with the open approvals and questions themselves. */
export const sessionStateSchema = z
  .object({
    ...summaryFields,
    pendingApprovals: z.array(pendingApprovalSchema),
    openQuestions: z.array(openQuestionSchema),
  })
  .openapi("SessionState");

/** Query of `GET /v1/sessions`: `limit`, 1 to 1 000, default 50. */
export const listSessionsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(50)
    .openapi({ param: { name: "limit", in: "query" }, example: 50 }),
});

/**
 * Query of `GET /v1/sessions/:id/events`: `from`, the first events-stream
 * sequence to send (default 1: the whole stored history); a `Last-Event-ID`
 * header wins over it. `access_token`: the bearer token, for `EventSource`.
 */
export const eventsQuerySchema = z.object({
  from: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ param: { name: "from", in: "query" }, example: 1 }),
  access_token: z
    .string()
    .optional()
    .openapi({ param: { name: "access_token", in: "query" } }),
});

/** Header of `GET /v1/sessions/:id/events`: `Last-Event-ID`, `<seq>` or `<seq>.<k>`. */
export const eventsHeadersSchema = z.object({
  "last-event-id": z
    .string()
    .regex(/^\d{1,15}(?:\.\d{1,9})?$/, {
      error: 'Expected a Last-Event-ID this gateway sent: "<sequence>" or "<sequence>.<k>".',
    })
    .optional()
    .openapi({ param: { name: "last-event-id", in: "header" }, example: "42.3" }),
});

/** The `data:` of each SSE event: an event envelope as the protocol defines it. */
export const eventEnvelopeDocSchema = eventEnvelopeSchema.meta({ id: "EventEnvelope" });
