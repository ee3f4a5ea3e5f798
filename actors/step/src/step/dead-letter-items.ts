import {
  type ActorAddress,
  DecodeError,
  type TroupeError,
  deadLetterSubject,
  encodeEvent,
  eventSubject,
  formatAddress,
  JSON_CONTENT_TYPE,
} from "@troupe/protocol";
import type { OutboxItem } from "./actor-record.js";

/**
 * Largest original body copied into a dead letter, in bytes (1 MiB: its base64
 * form stays well under the 4 MB `max_payload` of our nats-server configs).
 */
export const DEAD_LETTER_MAX_DATA_BYTES = 1024 * 1024;

/** Content type of dead-letter records (readable with a plain `nats sub`). */
export const DEAD_LETTER_CONTENT_TYPE = JSON_CONTENT_TYPE;

/** The rejected inbox message, as the host read it. */
export interface RejectedMessage {
  /** Inbox stream sequence. */
  readonly seq: number;
  readonly subject: string;
  readonly data: Uint8Array;
  readonly contentType: string | undefined;
  /** Stream time, Unix ms. */
  readonly timestampMs: number;
}

/**
 * A dead-letter record as published on `_troupe.deadletter.<kind>.<id>`.
 *
 * `data` is the original message body in base64, so nothing is lost.
 */
export interface DeadLetterRecord {
  readonly reason: string;
  readonly code: string;
  readonly subject: string;
  /** Inbox stream sequence of the rejected message; undefined for an unroutable publish (never stored). */
  readonly inboxSeq: number | undefined;
  readonly actor: string | undefined;
  /** zod issues when the message failed validation. */
  readonly issues: readonly unknown[] | undefined;
  /** Stream time of the original message, Unix ms. */
  readonly timestampMs: number;
  readonly contentType: string | undefined;
  /** Size of the original body in bytes. */
  readonly sizeBytes: number;
  /**
   * The original body in base64; omitted (undefined) for a body over
   * {@link DEAD_LETTER_MAX_DATA_BYTES}, so the dead letter itself stays under the
   * server's payload limit — the body is still in the inbox stream at `inboxSeq`.
   */
  readonly data: string | undefined;
  /** NATS headers of the original message (name → values), for an unroutable publish; undefined otherwise. */
  readonly headers?: Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * Builds the dead-letter record of a rejected message.
 *
 * @param input - the rejected message, its parsed subject tokens and the error.
 * @returns the record and its outbox item (deterministic `Nats-Msg-Id`
 *   `dl:<inbox sequence>`).
 */
export function deadLetterItem(input: {
  kind: string;
  id: string;
  actor: string | undefined;
  message: RejectedMessage;
  error: TroupeError;
}): OutboxItem {
  const record: DeadLetterRecord = {
    reason: input.error.message,
    code: DecodeError.isInstance(input.error)
      ? `${input.error.code}:${input.error.reason}`
      : input.error.code,
    subject: input.message.subject,
    inboxSeq: input.message.seq,
    actor: input.actor,
    issues: DecodeError.isInstance(input.error) ? input.error.issues : undefined,
    timestampMs: input.message.timestampMs,
    contentType: input.message.contentType,
    sizeBytes: input.message.data.length,
    data:
      input.message.data.length <= DEAD_LETTER_MAX_DATA_BYTES
        ? Buffer.from(input.message.data).toString("base64")
        : undefined,
  };
  return {
    subject: deadLetterSubject(input.kind, input.id),
    messageId: `dl:${input.message.seq}`,
    contentType: DEAD_LETTER_CONTENT_TYPE,
    body: new TextEncoder().encode(JSON.stringify(record)),
  };
}

/**
 * The dead letter and the `message.rejected` event for a message addressed to a
 * valid actor.
 *
 * @param input - actor address, the message, the error and the event sequence to use.
 * @returns two outbox items: dead letter first, then the event.
 */
export function deadLetterItems(input: {
  address: ActorAddress;
  message: RejectedMessage;
  error: TroupeError;
  eventSeq: number;
  /** Id and type of the message, when its envelope decoded (else the inbox-derived id is used). */
  envelope?: { id: string; type: string };
  /**
   * The actor does not exist and is not created for this (docs/decisions/0013): the
   * event is transient (`meta.seq` 0), its id `<actor>:ev:in.<inbox seq>.1`.
   */
  transient?: boolean;
}): OutboxItem[] {
  const actor = formatAddress(input.address);
  const deadLetter = deadLetterItem({
    kind: input.address.kind,
    id: input.address.id,
    actor,
    message: input.message,
    error: input.error,
  });
  const transient = input.transient === true;
  const eventId = transient
    ? `${actor}:ev:in.${input.message.seq}.1`
    : `${actor}:ev:${input.eventSeq}`;
  const messageType =
    input.envelope?.type ??
    (DecodeError.isInstance(input.error) ? input.error.messageType : undefined);
  const event = encodeEvent({
    v: 1,
    id: eventId,
    type: "message.rejected",
    payload: {
      reason: input.error.message,
      code: input.error.code,
      messageId:
        input.envelope?.id ??
        (DecodeError.isInstance(input.error) ? input.error.messageId : undefined) ??
        `${actor}:in:${input.message.seq}`,
      ...(messageType === undefined ? {} : { type: messageType }),
      ...(DecodeError.isInstance(input.error) && input.error.issues !== undefined
        ? { issues: input.error.issues }
        : {}),
    },
    meta: {
      actor,
      seq: transient ? 0 : input.eventSeq,
      ...(transient ? { transient: true as const } : {}),
      timestampMs: input.message.timestampMs,
    },
  });
  return [
    deadLetter,
    {
      subject: eventSubject(input.address, "message.rejected"),
      messageId: eventId,
      contentType: event.contentType,
      body: event.bytes,
    },
  ];
}
