import {
  actorAddress,
  inboxSubject,
  priorityFromHeader,
  validateMessagePayload,
  type MessageEnvelope,
  type PriorityClass,
  type UserMessage,
} from "@troupe/protocol";

/** A message ready to publish to a session's inbox. */
export interface SessionMessage {
  /** `troupe.session.<sessionId>.in`. */
  readonly subject: string;
  /** The envelope to encode. */
  readonly envelope: MessageEnvelope;
  /**
   * The JetStream `Nats-Msg-Id`: `session/<sessionId>/<envelope id>`. Dedup ids
   * are unique per stream and every session shares the inbox stream, hence the
   * session in it.
   */
  readonly msgID: string;
  /**
   * The `Troupe-Priority` header to publish with (`user.message` `priority`,
   * docs/decisions/0057); undefined for `default`.
   */
  readonly priority?: PriorityClass;
}

/** Message types the client sends to a session. */
export type SessionMessageType =
  | "user.message"
  | "tool.approve"
  | "tool.deny"
  | "question.answer"
  | "run.steer"
  | "run.cancel"
  | "session.compact"
  | "session.fork";

/**
 * The envelope id the client gives a `user.message`: `cm:<clientMessageId>`.
 * Deterministic, so a retried send carries the same id, and `waitForRun` can
 * match `message.rejected` (which names only the envelope id) to a client
 * message id.
 *
 * @param clientMessageId - an actor-id-safe token (1 to 128 characters).
 * @returns e.g. `"cm:7f9c…"` (at most 131 characters).
 */
export function userMessageEnvelopeId(clientMessageId: string): string {
  return `cm:${clientMessageId}`;
}

/**
 * Builds the envelope, subject and dedup id of a message to a session. Pure.
 * The payload is checked with the schema the session decodes it with
 * (`validateMessagePayload`), so a bad field fails here, before anything is
 * published, with the error the session would reject it with (docs/decisions/0012).
 *
 * @param sessionId - the session (validated here).
 * @param type - the message type.
 * @param payload - its payload.
 * @param options - `id` (envelope id) and `timestampMs` (Unix ms).
 * @returns what to publish (the payload as the schema outputs it).
 * @throws {@link InvalidAddressError} when `sessionId` breaks the actor id rules.
 * @throws `DecodeError` (reason `schema_invalid`, zod issues with paths such as
 *   `["payload", "text"]`) when the payload breaks its schema: a blank text, an
 *   unknown field, a malformed id.
 */
export function buildSessionMessage(
  sessionId: string,
  type: SessionMessageType,
  payload: Record<string, unknown>,
  options: { readonly id: string; readonly timestampMs: number },
): SessionMessage {
  const address = actorAddress("session", sessionId);
  const subject = inboxSubject(address);
  const checked = validateMessagePayload(type, payload, { subject });
  const priority =
    type === "user.message" ? priorityFromHeader((checked as UserMessage).priority) : undefined;
  return {
    subject,
    envelope: {
      v: 1,
      id: options.id,
      type,
      payload: checked,
      meta: { timestampMs: options.timestampMs },
    },
    msgID: `session/${sessionId}/${options.id}`,
    ...(priority === undefined ? {} : { priority }),
  };
}
