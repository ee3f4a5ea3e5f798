import type { Message } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, RequestMalformedError } from "@a2a-js/sdk/errors";

/**
 * The text of an A2A message for a Troupe session: its text parts joined with
 * a line break, a data part as its JSON (docs/decisions/0026). File parts (`raw`, `url`)
 * are refused: Troupe user messages are text.
 *
 * @param message - the A2A message (`parts` in the SDK's v1.0 shape).
 * @returns the text, never blank.
 * @throws ContentTypeNotSupportedError for a file part; RequestMalformedError
 *   when the message has no text at all.
 */
export function a2aMessageText(message: Message): string {
  const texts: string[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content === undefined) continue;
    switch (content.$case) {
      case "text":
        texts.push(content.value);
        break;
      case "data":
        texts.push(JSON.stringify(content.value));
        break;
      case "raw":
      case "url":
        throw new ContentTypeNotSupportedError(
          `A Troupe agent takes text and data parts; this message has a file part (${part.mediaType || content.$case}).`,
        );
    }
  }
  const text = texts.join("\n");
  if (text.trim() === "") {
    throw new RequestMalformedError("The message has no text: send a text or data part.");
  }
  return text;
}

/** How an A2A reply settles an approval. Shape: `{ approve: true, note? }` or `{ approve: false, reason? }`. */
export type ApprovalReply =
  | { readonly approve: true; readonly note?: string }
  | { readonly approve: false; readonly reason?: string };

const APPROVE_WORDS = new Set(["approve", "approved", "yes", "y", "ok", "allow"]);
const DENY_WORDS = new Set(["deny", "denied", "no", "n", "reject"]);

/**
 * Reads the reply to a task waiting for an approval (`input-required` after
 * `tool.approval_requested`): a data part `{ "approve": true }` or
 * `{ "approve": false, "reason": "…" }`, or a text whose first word is
 * `approve`/`yes`/`y`/`ok`/`allow` or `deny`/`no`/`n`/`reject` (any case; the
 * rest of the text is the note or the reason). Decision 0026.
 *
 * @param message - the A2A reply.
 * @returns the decision.
 * @throws RequestMalformedError for anything else (the message says what is expected).
 */
export function approvalReply(message: Message): ApprovalReply {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case !== "data") continue;
    const value: unknown = content.value;
    if (typeof value === "object" && value !== null && "approve" in value) {
      const { approve, reason, note } = value as {
        approve: unknown;
        reason?: unknown;
        note?: unknown;
      };
      if (approve === true) return typeof note === "string" ? { approve, note } : { approve };
      if (approve === false) return typeof reason === "string" ? { approve, reason } : { approve };
    }
  }
  const text = message.parts
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join(" ")
    .trim();
  const [first = "", ...rest] = text.split(/\s+/);
  const word = first.toLowerCase().replace(/[.,:;!]+$/, "");
  const remainder = rest.join(" ").trim();
  if (APPROVE_WORDS.has(word))
    return remainder === "" ? { approve: true } : { approve: true, note: remainder };
  if (DENY_WORDS.has(word))
    return remainder === "" ? { approve: false } : { approve: false, reason: remainder };
  throw new RequestMalformedError(
    'The task waits for an approval: reply "approve" or "deny" (text, optionally followed by a note or reason), ' +
      'or a data part {"approve": true} / {"approve": false, "reason": "…"}.',
  );
}

/**
 * Reads the reply to a task waiting for an answer (`input-required` after
 * `question.asked`): a data part `{ "answer": "…" }`, else the message's text.
 *
 * @param message - the A2A reply.
 * @returns the answer text.
 * @throws RequestMalformedError when there is no answer text.
 */
export function questionReply(message: Message): string {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case !== "data") continue;
    const value: unknown = content.value;
    if (typeof value === "object" && value !== null && "answer" in value) {
      const answer = value.answer;
      if (typeof answer === "string" && answer.trim() !== "") return answer;
    }
  }
  const text = message.parts
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("\n")
    .trim();
  if (text === "") {
    throw new RequestMalformedError(
      'The task waits for an answer to a question: reply with its text, or a data part {"answer": "…"}.',
    );
  }
  return text;
}
