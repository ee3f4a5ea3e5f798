import { nanos } from "@nats-io/transport-node";
import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from "@nats-io/jetstream";
import {
  CLAIM_STREAM_SUBJECTS,
  DEAD_LETTER_STREAM_SUBJECTS,
  DELTA_STREAM_SUBJECTS,
  EVENT_STREAM_SUBJECTS,
  INBOX_STREAM_SUBJECTS,
  TRANSCRIPT_STREAM_SUBJECTS,
} from "@troupe/protocol";
import type { StreamNames } from "@troupe/protocol";

/** Default of {@link StreamRetention.claimRetentionMs}: 7 days, as idempotency records. */
export const DEFAULT_CLAIM_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Default of {@link StreamRetention.deltaRetentionMs}: 1 hour. */
export const DEFAULT_DELTA_RETENTION_MS = 3_600_000;

/** Retention of the streams, in ms. */
export interface StreamRetention {
  /** How long inbox messages (the journal) are kept; default 7 days. */
  readonly journalRetentionMs: number;
  /** How long events are kept for replay; default 7 days. */
  readonly eventRetentionMs: number;
  /**
   * How long the deltas stream keeps the transient `run.delta` events, so a
   * client reconnecting mid-answer catches up; default 1 hour (issue #11).
   */
  readonly deltaRetentionMs?: number;
  /** How long transcripts are kept; 0 (the default) keeps them as long as the server does. */
  readonly transcriptRetentionMs: number;
  /**
   * How long execution claims of at-most-once tool calls are kept; default 7
   * days (the idempotency records' TTL). Issue #17.
   */
  readonly claimRetentionMs?: number;
  /** `Nats-Msg-Id` dedup window; default 2 minutes (the server's default). */
  readonly duplicateWindowMs: number;
}

/**
 * Creates the deployment's streams, or updates their retention (and the transcript
 * stream's `allow_direct`, issue #12) if they exist.
 * Idempotent; every host calls it at start. A deployment made before the deltas
 * stream existed gets it here; its events stream is left as it is (deltas it
 * stored before age out with the event retention; issue #11).
 *
 * @param manager - JetStream manager.
 * @param names - stream names.
 * @param retention - retention settings in ms.
 */
export async function ensureStreams(
  manager: JetStreamManager,
  names: StreamNames,
  retention: StreamRetention,
): Promise<void> {
  const common = {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    num_replicas: 1,
    duplicate_window: nanos(retention.duplicateWindowMs),
  };
  await upsert(manager, {
    ...common,
    name: names.inbox,
    subjects: [...INBOX_STREAM_SUBJECTS],
    max_age: nanos(retention.journalRetentionMs),
  });
  await upsert(manager, {
    ...common,
    name: names.events,
    subjects: [...EVENT_STREAM_SUBJECTS],
    max_age: nanos(retention.eventRetentionMs),
  });
  const deltaRetentionMs = retention.deltaRetentionMs ?? DEFAULT_DELTA_RETENTION_MS;
  await upsert(manager, {
    ...common,
    name: names.deltas,
    subjects: [...DELTA_STREAM_SUBJECTS],
    max_age: nanos(deltaRetentionMs),
    // JetStream refuses a dedup window longer than the stream's max age.
    duplicate_window: nanos(Math.min(retention.duplicateWindowMs, deltaRetentionMs)),
  });
  await upsert(manager, {
    ...common,
    name: names.deadLetter,
    subjects: [...DEAD_LETTER_STREAM_SUBJECTS],
    max_age: nanos(retention.journalRetentionMs),
  });
  await upsert(manager, {
    ...common,
    name: names.transcript,
    subjects: [...TRANSCRIPT_STREAM_SUBJECTS],
    max_age: nanos(retention.transcriptRetentionMs),
    // Model calls read the entries appended since their last read by direct get (issue #12).
    allow_direct: true,
  });
  await upsert(manager, {
    ...common,
    name: names.claims,
    subjects: [...CLAIM_STREAM_SUBJECTS],
    // One claim per tool call, kept as long as idempotency records (7 days).
    max_msgs_per_subject: 1,
    max_age: nanos(retention.claimRetentionMs ?? DEFAULT_CLAIM_RETENTION_MS),
    duplicate_window: nanos(
      Math.min(
        retention.duplicateWindowMs,
        retention.claimRetentionMs ?? DEFAULT_CLAIM_RETENTION_MS,
      ),
    ),
  });
}

async function upsert(
  manager: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
): Promise<void> {
  try {
    await manager.streams.info(config.name);
  } catch {
    await manager.streams.add(config);
    return;
  }
  await manager.streams.update(config.name, {
    max_age: config.max_age,
    duplicate_window: config.duplicate_window,
    ...(config.allow_direct === undefined ? {} : { allow_direct: config.allow_direct }),
  });
}
