import { createHash } from "node:crypto";
import { isValidActorId } from "@troupe/protocol";
import { z } from "@hono/zod-openapi";
import { GatewayError } from "../http/gateway-error.js";
import { parseApprovalId, parseRunMessageId } from "../ui-stream/ui-ids.js";

/** Most UI messages a `POST /api/chat` body may carry: 10 000 (the body size is capped by the app too). */
export const MAX_CHAT_MESSAGES = 10_000;

const uiPartSchema = z.looseObject({ type: z.string() });
const uiMessageSchema = z.looseObject({
  id: z.string().min(1).max(512),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(uiPartSchema).max(10_000),
  metadata: z.unknown().optional(),
});
/** A UI message as the AI SDK sends it (only the fields the gateway reads are checked). */
export type ChatUIMessage = z.infer<typeof uiMessageSchema>;

/**
 * The body of `POST /api/chat` as `DefaultChatTransport` sends it:
 * `{ id, messages, trigger, messageId, ... }` — `id` is the session id; a
 * client that sends only the last message may send `message` instead of
 * `messages`. Extra fields are allowed (the SDK adds the `body` option's).
 *
 * Shape: `{ id: string, messages?: UIMessage[] (≤ 10 000), message?: UIMessage, trigger?: "submit-message" | "regenerate-message", messageId?: string }`.
 */
export const chatRequestSchema = z
  .looseObject({
    id: z.string().openapi({ description: "The session id (1 to 128 of [A-Za-z0-9_-])." }),
    messages: z.array(uiMessageSchema).max(MAX_CHAT_MESSAGES).optional(),
    message: uiMessageSchema.optional(),
    trigger: z.enum(["submit-message", "regenerate-message"]).optional(),
    messageId: z.string().optional(),
  })
  .openapi("ChatRequest");
/** See {@link chatRequestSchema}. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** What a chat POST asks for. */
export type ChatAction =
  | {
      readonly kind: "send";
      readonly sessionId: string;
      readonly text: string;
      readonly clientMessageId: string;
    }
  | {
      readonly kind: "approvals";
      readonly sessionId: string;
      readonly runId: string;
      /** Events-stream sequence of the run's `run.started`, from the message's metadata (a hint). */
      readonly runStartSequence: number | undefined;
      readonly responses: readonly ApprovalResponse[];
    };

/** One `approval-responded` tool part of the client's assistant message. */
export interface ApprovalResponse {
  readonly approvalId: string;
  readonly ownerSessionId: string;
  readonly toolCallId: string;
  readonly approved: boolean;
  readonly reason: string | undefined;
}

/**
 * The client message id of a UI message id: the id itself when it is
 * actor-id-safe (1 to 128 of `[A-Za-z0-9_-]`; the SDK's generated ids are),
 * else `h` and 40 hex digits of its SHA-256 — deterministic, so a retried
 * POST of the same message still starts no second run.
 *
 * @param uiMessageId - the UI message's `id`.
 */
export function clientMessageIdOf(uiMessageId: string): string {
  if (isValidActorId(uiMessageId)) return uiMessageId;
  return `h${createHash("sha256").update(uiMessageId, "utf8").digest("hex").slice(0, 40)}`;
}

/**
 * Reads what a chat POST asks for.
 *
 * @param body - the parsed JSON body.
 * @returns the action: send the last (user) message, or settle the approvals
 *   of the last (assistant) message and continue its run.
 * @throws GatewayError 400 `invalid_request` for a body that is not a chat
 *   request, an invalid session id, no message, a user message without text,
 *   or an assistant message that is not a Troupe run's or answers no approval.
 */
export function readChatRequest(body: unknown): ChatAction {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    throw new GatewayError(
      400,
      "invalid_request",
      `The body is not a chat request: ${parsed.error.issues
        .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
        .join("; ")}`,
      parsed.error.issues,
    );
  }
  const request = parsed.data;
  const sessionId = request.id;
  if (!isValidActorId(sessionId)) {
    throw new GatewayError(
      400,
      "invalid_request",
      `Invalid chat id ${JSON.stringify(sessionId)}: it is the session id, 1 to 128 characters from A-Z, a-z, 0-9, "_" and "-".`,
    );
  }
  const last = request.messages?.at(-1) ?? request.message;
  if (last === undefined) {
    throw new GatewayError(400, "invalid_request", "The chat request carries no message.");
  }
  if (last.role === "user") {
    const text = last.parts
      .map((part) => (part.type === "text" && typeof part["text"] === "string" ? part["text"] : ""))
      .join("");
    if (text.trim() === "") {
      throw new GatewayError(400, "invalid_request", "The last user message has no text.");
    }
    return { kind: "send", sessionId, text, clientMessageId: clientMessageIdOf(last.id) };
  }
  if (last.role === "assistant") return approvalsAction(sessionId, last);
  throw new GatewayError(
    400,
    "invalid_request",
    "The last message must be a user or an assistant message.",
  );
}

function approvalsAction(sessionId: string, message: ChatUIMessage): ChatAction {
  const run = parseRunMessageId(message.id);
  if (run === undefined || run.sessionId !== sessionId) {
    throw new GatewayError(
      400,
      "invalid_request",
      `The last assistant message ${JSON.stringify(message.id)} is not an answer of session ${sessionId}.`,
    );
  }
  const responses: ApprovalResponse[] = [];
  for (const part of message.parts) {
    const approval = part["approval"] as
      { id?: unknown; approved?: unknown; reason?: unknown } | undefined;
    if (part["state"] !== "approval-responded" || typeof approval?.id !== "string") continue;
    const call = parseApprovalId(approval.id);
    if (
      call === undefined ||
      (call.ownerSessionId !== sessionId && !call.ownerSessionId.startsWith("sub-"))
    ) {
      throw new GatewayError(
        400,
        "invalid_request",
        `Unknown approval id ${JSON.stringify(approval.id)}.`,
      );
    }
    responses.push({
      approvalId: approval.id,
      ...call,
      approved: approval.approved === true,
      reason: typeof approval.reason === "string" ? approval.reason : undefined,
    });
  }
  if (responses.length === 0) {
    throw new GatewayError(
      400,
      "invalid_request",
      "The last assistant message answers no approval (no tool part in state approval-responded).",
    );
  }
  const metadata = message.metadata as { runStartSequence?: unknown } | undefined;
  const hint = metadata?.runStartSequence;
  return {
    kind: "approvals",
    sessionId,
    runId: run.runId,
    runStartSequence:
      typeof hint === "number" && Number.isSafeInteger(hint) && hint > 0 ? hint : undefined,
    responses,
  };
}
