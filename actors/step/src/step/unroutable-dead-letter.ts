import {
  TroupeError,
  UNROUTABLE_DEAD_LETTER_SUBJECT,
  describeUnroutableSubject,
} from "@troupe/protocol";
import {
  DEAD_LETTER_CONTENT_TYPE,
  DEAD_LETTER_MAX_DATA_BYTES,
  type DeadLetterRecord,
} from "./dead-letter-items.js";

/** A core NATS message under `troupe.` that matched no route, as a host caught it. */
export interface UnroutableMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  /** Its headers, name → values; empty when it had none. */
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** When the host caught it, Unix ms (the host clock: the message was never stored). */
  readonly receivedAtMs: number;
}

/**
 * The dead letter of an unroutable publish (docs/decisions/0012): code `unroutable_subject`,
 * the original subject, headers and body (base64, up to
 * {@link DEAD_LETTER_MAX_DATA_BYTES}), no inbox sequence and no actor. Pure.
 *
 * @param message - what the capture subscription received.
 * @returns the subject (`_troupe.deadletter.unroutable`), content type and JSON body to publish.
 */
export function unroutableDeadLetter(message: UnroutableMessage): {
  readonly subject: string;
  readonly contentType: string;
  readonly body: Uint8Array;
  readonly record: DeadLetterRecord;
} {
  const error = new TroupeError("unroutable_subject", describeUnroutableSubject(message.subject));
  const contentType = message.headers["Content-Type"]?.[0];
  const record: DeadLetterRecord = {
    reason: error.message,
    code: error.code,
    subject: message.subject,
    inboxSeq: undefined,
    actor: undefined,
    issues: undefined,
    timestampMs: message.receivedAtMs,
    contentType,
    sizeBytes: message.data.length,
    data:
      message.data.length <= DEAD_LETTER_MAX_DATA_BYTES
        ? Buffer.from(message.data).toString("base64")
        : undefined,
    headers: message.headers,
  };
  return {
    subject: UNROUTABLE_DEAD_LETTER_SUBJECT,
    contentType: DEAD_LETTER_CONTENT_TYPE,
    body: new TextEncoder().encode(JSON.stringify(record)),
    record,
  };
}
