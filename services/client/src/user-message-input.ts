import {
  InvalidAddressError,
  isValidActorId,
  validateMessagePayload,
  type MediaRef,
  type PriorityClass,
  type UserMessage,
} from "@troupe/protocol";

/**
 * What `send` and `sendAndWait` take: the text alone, or the `user.message`
 * fields.
 *
 * Shape: `string | { text: string, clientMessageId?: string, agent?: string, metadata?: Record<string, unknown>, attachments?: MediaRef[], priority?: "interactive" | "default" | "batch" }`.
 * `attachments` are references `uploadMedia` returned (docs/decisions/0045).
 * `clientMessageId` (1 to 128 of `[A-Za-z0-9_-]`) makes retries safe; when
 * absent, a UUID is generated.
 */
export type UserMessageInput =
  | string
  | {
      readonly text: string;
      readonly clientMessageId?: string;
      readonly agent?: string;
      readonly metadata?: Record<string, unknown>;
      readonly attachments?: readonly MediaRef[];
      /**
       * Scheduling class of the run (docs/decisions/0057): `interactive`,
       * `default` (when omitted) or `batch`.
       */
      readonly priority?: PriorityClass;
    };

/**
 * The `user.message` payload for an input, with a client message id.
 *
 * @param input - text or fields.
 * @param generateId - makes a client message id when none is given (must
 *   return an actor-id-safe token, e.g. `crypto.randomUUID()`).
 * @returns the payload, `clientMessageId` always set.
 * @throws {@link InvalidAddressError} (field `"id"`) when `clientMessageId` breaks
 *   the actor id rules.
 * @throws `DecodeError` (reason `schema_invalid`) when a field breaks the
 *   `user.message` schema, the one the session decodes with: a blank text or one
 *   over 262,144 characters, an agent name that is not actor-id-safe, an unknown
 *   field (docs/decisions/0012).
 */
export function toUserMessage(
  input: UserMessageInput,
  generateId: () => string,
): UserMessage & { clientMessageId: string } {
  const fields = typeof input === "string" ? { text: input } : input;
  const clientMessageId = fields.clientMessageId ?? generateId();
  if (!isValidActorId(clientMessageId)) {
    throw new InvalidAddressError(
      `Invalid clientMessageId ${JSON.stringify(clientMessageId)}: use 1 to 128 characters ` +
        'from A-Z, a-z, 0-9, "_" and "-".',
      "id",
      String(clientMessageId),
    );
  }
  const given = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  const payload = validateMessagePayload("user.message", { ...given, clientMessageId });
  return { ...payload, clientMessageId };
}
