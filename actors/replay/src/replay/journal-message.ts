import {
  DEFAULT_SHARD_COUNT,
  encodeMessage,
  shardInboxSubject,
  shardOf,
  type ActorAddress,
} from "@troupe/protocol";
import type { InboxMessage } from "@troupe/step";

/** What {@link journalMessage} makes a journal entry of. */
export interface JournalMessageParts {
  /** Inbox stream sequence (> 0, increasing within an actor's journal). */
  readonly seq: number;
  /** The actor whose inbox it is. */
  readonly address: ActorAddress;
  /** Message type, e.g. `user.message` or `effect.completed`. */
  readonly type: string;
  /** The message payload (validated by the kind's schema when the step takes it). */
  readonly payload: Record<string, unknown>;
  /** Stream time, Unix ms; default 2025-01-01T00:00:00Z + `seq` seconds. */
  readonly timestampMs?: number;
  /** Envelope id; default `m<seq>`. */
  readonly id?: string;
  /** The deployment's shard count, for the shard inbox subject; default `DEFAULT_SHARD_COUNT`. */
  readonly shardCount?: number;
}

/**
 * One inbox message as the inbox stream would hold it — msgpack-encoded
 * envelope, `Content-Type`, shard inbox subject, stream time — for building a
 * journal by hand: a pure test of a kind, or a history made with
 * `recordActorHistory` (docs/decisions/0020).
 *
 * @param parts - sequence, actor, type, payload and optional time, id, shard count.
 * @returns the message, ready for `processMessage` or `recordActorHistory`.
 * @example
 * const journal = [
 *   journalMessage({ seq: 1, address, type: "add", payload: { by: 2 } }),
 *   journalMessage({ seq: 2, address, type: "add", payload: { by: 3 } }),
 * ];
 * const { actor } = recordActorHistory(counterKind, address, journal);
 */
export function journalMessage(parts: JournalMessageParts): InboxMessage {
  const timestampMs = parts.timestampMs ?? 1_735_689_600_000 + parts.seq * 1000;
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: parts.id ?? `m${parts.seq}`,
    type: parts.type,
    payload: parts.payload,
    meta: { timestampMs },
  });
  const shard = shardOf(parts.address, parts.shardCount ?? DEFAULT_SHARD_COUNT);
  return {
    seq: parts.seq,
    subject: shardInboxSubject(shard, parts.address),
    data: bytes,
    contentType,
    timestampMs,
  };
}
