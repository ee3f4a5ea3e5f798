import { InvalidAddressError, isValidActorId, type UserMessage } from "@troupe/protocol";

/**
 * What `send` and `sendAndWait` take: the text alone, or the `user.message`
 * fields.
 *
 * Shape: `string | { text: string, clientMessageId?: string, agent?: string, metadata?: Record<string, unknown> }`.
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
 * @throws RangeError when `text` is empty.
 */
export function toUserMessage(
  input: UserMessageInput,
  generateId: () => string,
): UserMessage & { clientMessageId: string } {
  const fields = typeof input === "string" ? { text: input } : input;
  if (typeof fields.text !== "string" || fields.text === "") {
    throw new RangeError("A user message needs a non-empty text.");
  }
  const clientMessageId = fields.clientMessageId ?? generateId();
  if (!isValidActorId(clientMessageId)) {
    throw new InvalidAddressError(
      `Invalid clientMessageId ${JSON.stringify(clientMessageId)}: use 1 to 128 characters ` +
        'from A-Z, a-z, 0-9, "_" and "-".',
      "id",
      String(clientMessageId),
    );
  }
  return {
    text: fields.text,
    clientMessageId,
    ...(fields.agent === undefined ? {} : { agent: fields.agent }),
    ...(fields.metadata === undefined ? {} : { metadata: fields.metadata }),
  };
}
