import { DeliverPolicy, type JetStreamClient, type JetStreamManager } from "@nats-io/jetstream";
import {
  CONTENT_TYPE_HEADER,
  INTERNAL_SUBJECT_ROOT,
  parseShardInboxSubject,
  shardInboxSubject,
  shardOf,
} from "@troupe/protocol";
import type { InboxMessage } from "@troupe/step";
import type { StreamNames, ActorAddress } from "@troupe/protocol";

/** Where an actor's journal lives. */
export interface JournalSource {
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly streams: StreamNames;
  readonly shardCount: number;
  /**
   * Counts the deployment had before `shardCount` (`earlierShardCounts` of the
   * `<p>:deployment` hash): an actor's messages from before a change
   * of the shard count are stored under its shard number of then. Default none.
   */
  readonly earlierShardCounts?: readonly number[];
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
  const shards = new Set(
    [source.shardCount, ...(source.earlierShardCounts ?? [])].map((count) =>
      shardOf(address, count),
    ),
  );
  const subjects = [...shards].map((shard) => shardInboxSubject(shard, address));
  let lastSeq = 0;
  try {
    for (const subject of subjects) {
      const last = await source.jsm.streams.getMessage(source.streams.inbox, {
        last_by_subj: subject,
      });
      if (last !== null) lastSeq = Math.max(lastSeq, last.seq);
    }
    if (lastSeq === 0) return;
    lastSeq = Math.min(lastSeq, untilSeq);
  } catch {
    return;
  }
  // One subject: as before. After a change of the shard count: every shard
  // number of the actor (`_troupe.inbox.*.<kind>.<id>`), kept when the number
  // is one of its shards under a count the deployment had.
  const consumer = await source.js.consumers.get(source.streams.inbox, {
    filter_subjects:
      subjects.length === 1
        ? (subjects[0] ?? "")
        : `${INTERNAL_SUBJECT_ROOT}.inbox.*.${address.kind}.${address.id}`,
    deliver_policy: DeliverPolicy.All,
  });
  const messages = await consumer.consume();
  try {
    for await (const message of messages) {
      if (message.seq > lastSeq) break;
      if (subjects.length > 1 && !shards.has(parseShardInboxSubject(message.subject).shard)) {
        if (message.seq >= lastSeq) break;
        continue;
      }
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
