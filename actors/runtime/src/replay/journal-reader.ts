import { DeliverPolicy, type JetStreamClient, type JetStreamManager } from "@nats-io/jetstream";
import { CONTENT_TYPE_HEADER, shardInboxSubject, shardOf } from "@troupe/protocol";
import type { InboxMessage } from "../step/process-message.js";
import type { StreamNames, ActorAddress } from "@troupe/protocol";

/** Where an actor's journal lives. */
export interface JournalSource {
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly streams: StreamNames;
  readonly shardCount: number;
}

/**
 * Reads an actor's journal: every message its inbox received, in order, as the
 * host saw them (the inbox stream keeps them for `journalRetentionMs`).
 *
 * @param source - JetStream clients, stream names and the deployment's shard count.
 * @param address - the actor.
 * @param untilSeq - last inbox sequence to read (inclusive); default: the newest.
 * @returns the messages, oldest first.
 */
export async function* readJournal(
  source: JournalSource,
  address: ActorAddress,
  untilSeq = Number.POSITIVE_INFINITY,
): AsyncGenerator<InboxMessage> {
  const subject = shardInboxSubject(shardOf(address, source.shardCount), address);
  let lastSeq: number;
  try {
    const last = await source.jsm.streams.getMessage(source.streams.inbox, {
      last_by_subj: subject,
    });
    if (last === null) return;
    lastSeq = Math.min(last.seq, untilSeq);
  } catch {
    return;
  }
  const consumer = await source.js.consumers.get(source.streams.inbox, {
    filter_subjects: subject,
    deliver_policy: DeliverPolicy.All,
  });
  const messages = await consumer.consume();
  try {
    for await (const message of messages) {
      if (message.seq > lastSeq) break;
      yield {
        seq: message.seq,
        subject: message.subject,
        data: message.data,
        contentType: message.headers?.get(CONTENT_TYPE_HEADER) || undefined,
        timestampMs: Math.floor(Number(message.info.timestampNanos) / 1_000_000),
      };
      if (message.seq >= lastSeq) break;
    }
  } finally {
    await messages.close().catch(() => undefined);
  }
}
