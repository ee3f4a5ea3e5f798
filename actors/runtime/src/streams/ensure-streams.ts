import { nanos } from "@nats-io/transport-node";
import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from "@nats-io/jetstream";
import {
  DEAD_LETTER_STREAM_SUBJECTS,
  DELTA_STREAM_SUBJECTS,
  eventStreamSubjects,
  INBOX_STREAM_SUBJECTS,
  subjectCovers,
  subjectsCollide,
  TRANSCRIPT_STREAM_SUBJECTS,
} from "@troupe/protocol";
import type { StreamNames } from "@troupe/protocol";

/** Default of {@link StreamRetention.deltaRetentionMs}: 1 hour. */
export const DEFAULT_DELTA_RETENTION_MS = 3_600_000;

/** Retention of the streams, in ms. */
export interface StreamRetention {
  /** How long inbox messages (the journal) are kept; default 7 days. */
  readonly journalRetentionMs: number;
  /** How long events are kept for replay; default 7 days. */
  readonly eventRetentionMs: number;
  /**
   * How long the transient `run.delta` events are kept in the deltas stream, so
   * a client reconnecting mid-answer catches up; default 1 hour (issue #11).
   */
  readonly deltaRetentionMs?: number;
  /** How long transcripts are kept; 0 (the default) keeps them as long as the server does. */
  readonly transcriptRetentionMs: number;
  /** `Nats-Msg-Id` dedup window; default 2 minutes (the server's default). */
  readonly duplicateWindowMs: number;
}

/** What else {@link ensureStreams} needs besides the retention. */
export interface EnsureStreamsOptions {
  /**
   * Actor kinds this host runs: the events stream captures each kind's own
   * event subjects, `troupe.<kind>.*.events.>` (see `eventStreamSubjects`).
   */
  readonly kinds?: readonly string[];
}

/** Times the events stream's subjects are re-read and re-written when hosts race. */
const SUBJECT_UPDATE_ATTEMPTS = 5;

/**
 * Creates the deployment's streams, or updates their retention if they exist.
 * Idempotent; every host calls it at start.
 *
 * The events stream captures `eventStreamSubjects({ kinds })` and keeps the
 * subjects other hosts added (their kinds), minus any that overlap the deltas
 * stream — such as the catch-all `troupe.*.*.events.>` of a deployment made
 * before the deltas stream existed, which is replaced here *before* the deltas
 * stream is created (JetStream refuses overlapping subjects between streams).
 * Stored events stay; a `run.delta` stored before stays in the events stream
 * until the event retention drops it (issue #11).
 *
 * @param manager - JetStream manager.
 * @param names - stream names.
 * @param retention - retention settings in ms.
 * @param options - the kinds this host runs.
 * @throws the JetStream error of a refused create or update (e.g. a stream
 *   of another deployment owning the same subjects).
 */
export async function ensureStreams(
  manager: JetStreamManager,
  names: StreamNames,
  retention: StreamRetention,
  options: EnsureStreamsOptions = {},
): Promise<void> {
  const common = {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    num_replicas: 1,
  };
  const deduplicated = (maxAgeMs: number) => ({
    ...common,
    max_age: nanos(maxAgeMs),
    // JetStream refuses a dedup window longer than the stream's max age.
    duplicate_window: nanos(
      maxAgeMs > 0 ? Math.min(retention.duplicateWindowMs, maxAgeMs) : retention.duplicateWindowMs,
    ),
  });
  await upsert(manager, {
    ...deduplicated(retention.journalRetentionMs),
    name: names.inbox,
    subjects: [...INBOX_STREAM_SUBJECTS],
  });
  await ensureEventStream(manager, {
    ...deduplicated(retention.eventRetentionMs),
    name: names.events,
    subjects: eventStreamSubjects({ kinds: options.kinds ?? [] }),
  });
  await upsert(manager, {
    ...deduplicated(retention.deltaRetentionMs ?? DEFAULT_DELTA_RETENTION_MS),
    name: names.deltas,
    subjects: [...DELTA_STREAM_SUBJECTS],
  });
  await upsert(manager, {
    ...deduplicated(retention.journalRetentionMs),
    name: names.deadLetter,
    subjects: [...DEAD_LETTER_STREAM_SUBJECTS],
  });
  await upsert(manager, {
    ...deduplicated(retention.transcriptRetentionMs),
    name: names.transcript,
    subjects: [...TRANSCRIPT_STREAM_SUBJECTS],
  });
}

/**
 * The events stream's subjects after a host with `required` joins: the ones it
 * has that do not overlap the deltas stream, plus `required`, without any
 * subject another one covers.
 *
 * @param existing - the stream's subjects now.
 * @param required - the subjects this host needs.
 * @returns sorted subjects.
 */
export function mergeEventStreamSubjects(
  existing: readonly string[],
  required: readonly string[],
): string[] {
  const kept = existing.filter(
    (subject) => !DELTA_STREAM_SUBJECTS.some((delta) => subjectsCollide(subject, delta)),
  );
  const all = [...new Set([...kept, ...required])];
  return all
    .filter((subject) => !all.some((other) => other !== subject && subjectCovers(other, subject)))
    .sort();
}

async function ensureEventStream(
  manager: JetStreamManager,
  config: Partial<StreamConfig> & { name: string; subjects: string[] },
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const existing = await streamSubjects(manager, config.name);
    if (existing === undefined) {
      try {
        await manager.streams.add(config);
        return;
      } catch (error) {
        // Another host created it meanwhile: merge into theirs below.
        if ((await streamSubjects(manager, config.name)) === undefined) throw error;
        continue;
      }
    }
    const subjects = mergeEventStreamSubjects(existing, config.subjects);
    await manager.streams.update(config.name, {
      subjects,
      max_age: config.max_age,
      duplicate_window: config.duplicate_window,
    });
    // Hosts starting together read, merge and write in turn; check ours stayed.
    const after = (await streamSubjects(manager, config.name)) ?? [];
    const missing = config.subjects.some(
      (subject) => !after.some((other) => subjectCovers(other, subject)),
    );
    if (!missing || attempt >= SUBJECT_UPDATE_ATTEMPTS) return;
  }
}

async function streamSubjects(
  manager: JetStreamManager,
  name: string,
): Promise<string[] | undefined> {
  try {
    return (await manager.streams.info(name)).config.subjects ?? [];
  } catch {
    return undefined;
  }
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
  });
}
