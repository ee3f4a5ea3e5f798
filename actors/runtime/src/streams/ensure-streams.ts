import { nanos } from "@nats-io/transport-node";
import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type Placement,
  type StreamConfig,
  type StreamInfo,
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
import { StreamSettingsRefusedError } from "@troupe/step";

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
   * client reconnecting mid-answer catches up; default 1 hour (docs/decisions/0014).
   */
  readonly deltaRetentionMs?: number;
  /** How long transcripts are kept; 0 (the default) keeps them as long as the server does. */
  readonly transcriptRetentionMs: number;
  /**
   * How long execution claims of at-most-once tool calls are kept; default 7
   * days (the idempotency records' TTL). Decision 0031.
   */
  readonly claimRetentionMs?: number;
  /** `Nats-Msg-Id` dedup window; default 2 minutes (the server's default). */
  readonly duplicateWindowMs: number;
}

/** Where a deployment's stream replicas go (`streamPlacement`): a cluster, server tags or both. */
export interface StreamPlacement {
  readonly cluster?: string | undefined;
  readonly tags?: readonly string[] | undefined;
}

/**
 * Replication of the streams (decision 0032). Unset fields leave an
 * existing stream as it is; a new stream gets 1 replica and the servers' placement.
 */
export interface StreamReplication {
  /** Replicas of every stream (1–5). */
  readonly streamReplicas?: number | undefined;
  /** Placement of every stream's replicas. */
  readonly streamPlacement?: StreamPlacement | undefined;
}

/**
 * The `num_replicas` and `placement` a stream or key-value bucket of the
 * deployment is created with, so every JetStream asset follows the deployment's
 * replication (docs/decisions/0032): `{ num_replicas: streamReplicas ?? 1, placement? }`.
 * A key-value bucket takes them as `{ replicas: num_replicas, placement }`.
 *
 * @param replication - the host's `streamReplicas` and `streamPlacement`.
 */
export function streamReplicationConfig(replication: StreamReplication): {
  num_replicas: number;
  placement?: Placement;
} {
  const placement = placementConfig(replication.streamPlacement);
  return {
    num_replicas: replication.streamReplicas ?? 1,
    ...(placement === undefined ? {} : { placement }),
  };
}

/**
 * Creates the deployment's streams, or updates their retention (and the transcript
 * stream's `allow_direct`) if they exist. Replicas and placement
 * (docs/decisions/0032): a new stream gets `streamReplicas` (default 1) and
 * `streamPlacement`; an existing one is changed to them when they are set and
 * differ (nats-server adds or removes replicas, or moves the stream, in the
 * background; the stream stays available), and keeps its own when they are unset.
 * Idempotent; every host calls it at start. A deployment made before the deltas
 * stream existed gets it here; its events stream is left as it is (deltas it
 * stored before age out with the event retention).
 *
 * @param manager - JetStream manager.
 * @param names - stream names.
 * @param retention - retention settings in ms, and the replication (see {@link StreamReplication}).
 * @throws StreamSettingsRefusedError when the servers refuse the replicas or
 *   placement (e.g. 3 replicas on a single server); the stream is left as it was.
 */
export async function ensureStreams(
  manager: JetStreamManager,
  names: StreamNames,
  retention: StreamRetention & StreamReplication,
): Promise<void> {
  const common = {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    ...streamReplicationConfig(retention),
    duplicate_window: nanos(retention.duplicateWindowMs),
  };
  const upsert = (config: Partial<StreamConfig> & { name: string }) =>
    upsertStream(manager, config, retention);
  await upsert({
    ...common,
    name: names.inbox,
    subjects: [...INBOX_STREAM_SUBJECTS],
    max_age: nanos(retention.journalRetentionMs),
  });
  await upsert({
    ...common,
    name: names.events,
    subjects: [...EVENT_STREAM_SUBJECTS],
    max_age: nanos(retention.eventRetentionMs),
  });
  const deltaRetentionMs = retention.deltaRetentionMs ?? DEFAULT_DELTA_RETENTION_MS;
  await upsert({
    ...common,
    name: names.deltas,
    subjects: [...DELTA_STREAM_SUBJECTS],
    max_age: nanos(deltaRetentionMs),
    // JetStream refuses a dedup window longer than the stream's max age.
    duplicate_window: nanos(Math.min(retention.duplicateWindowMs, deltaRetentionMs)),
  });
  await upsert({
    ...common,
    name: names.deadLetter,
    subjects: [...DEAD_LETTER_STREAM_SUBJECTS],
    max_age: nanos(retention.journalRetentionMs),
  });
  await upsert({
    ...common,
    name: names.transcript,
    subjects: [...TRANSCRIPT_STREAM_SUBJECTS],
    max_age: nanos(retention.transcriptRetentionMs),
    // Model calls read the entries appended since their last read by direct get.
    allow_direct: true,
  });
  await upsert({
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

async function upsertStream(
  manager: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
  replication: StreamReplication,
): Promise<void> {
  let existing = await streamInfoIfAny(manager, config.name);
  if (existing === undefined) {
    try {
      await refusedAs(config.name, replication, manager.streams.add(config));
      return;
    } catch (error) {
      // Hosts starting together race to create the stream: the loser's add is
      // refused ("subjects overlap with an existing stream", nats-server 2.9.10).
      // The stream now exists, so it is treated as found.
      existing = await streamInfoIfAny(manager, config.name);
      if (existing === undefined) throw error;
    }
  }
  const placement = placementConfig(replication.streamPlacement);
  const replicas = replication.streamReplicas;
  const changesReplicas = replicas !== undefined && replicas !== existing.config.num_replicas;
  const changesPlacement =
    placement !== undefined && !samePlacement(placement, existing.config.placement);
  if (changesReplicas && replicas > 1 && existing.cluster === undefined) {
    // A server without clustering refuses such a stream on creation (10074) but
    // accepts the update and keeps a single copy (nats-server 2.9.10): refuse it here.
    throw new StreamSettingsRefusedError(
      config.name,
      replicas,
      replication.streamPlacement,
      undefined,
      "the server is not part of a JetStream cluster, so it keeps a single copy",
    );
  }
  const retention = {
    max_age: config.max_age,
    duplicate_window: config.duplicate_window,
    ...(config.allow_direct === undefined ? {} : { allow_direct: config.allow_direct }),
  };
  const changesRetention =
    retention.max_age !== existing.config.max_age ||
    retention.duplicate_window !== existing.config.duplicate_window ||
    (retention.allow_direct !== undefined &&
      retention.allow_direct !== existing.config.allow_direct);
  // No update when nothing changes: on a JetStream cluster (nats-server 2.9.10)
  // an update racing another host's creation of the same stream left both
  // requests unanswered.
  if (!changesRetention && !changesReplicas && !changesPlacement) return;
  // The servers refuse to move and scale a stream in one update (10123): move
  // first, so a placement they refuse leaves the stream as it was.
  await refusedAs(
    config.name,
    replication,
    manager.streams.update(config.name, {
      ...retention,
      ...(changesPlacement ? { placement } : {}),
      ...(changesReplicas && !changesPlacement ? { num_replicas: replicas } : {}),
    }),
  );
  if (changesPlacement && changesReplicas) {
    await refusedAs(
      config.name,
      replication,
      manager.streams.update(config.name, { num_replicas: replicas }),
    );
  }
}

/** The stream's info, or `undefined` when it does not exist (10059); other errors propagate. */
async function streamInfoIfAny(
  manager: JetStreamManager,
  name: string,
): Promise<StreamInfo | undefined> {
  try {
    return await manager.streams.info(name);
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
      return undefined;
    }
    throw error;
  }
}

/** Turns the servers' refusal of a stream's replication into a StreamSettingsRefusedError. */
async function refusedAs<T>(
  stream: string,
  replication: StreamReplication,
  request: Promise<T>,
): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || !isReplicationRefusal(error)) throw error;
    const apiError = error.apiError();
    throw new StreamSettingsRefusedError(
      stream,
      replication.streamReplicas ?? 1,
      replication.streamPlacement,
      apiError.err_code,
      apiError.description,
      { cause: error },
    );
  }
}

/**
 * JetStream's error codes for a replication it cannot give (seen from
 * nats-server 2.9.10): 10074 replicas > 1 without clustering, 10005 no suitable
 * peers (fewer servers than replicas, an unknown cluster, no server with the
 * tags), 10023 insufficient resources, 10123 scaling and moving in one update
 * (https://github.com/nats-io/nats-server/blob/main/server/errors.json).
 */
const replicationErrorCodes = new Set([10074, 10005, 10023, 10123]);

function isReplicationRefusal(error: JetStreamApiError): boolean {
  const code = error.apiError().err_code;
  return code !== undefined && replicationErrorCodes.has(code);
}

function placementConfig(placement: StreamPlacement | undefined): Placement | undefined {
  if (placement === undefined) return undefined;
  // The server accepts a placement with either field; nats.js types both as required.
  return {
    ...(placement.cluster === undefined ? {} : { cluster: placement.cluster }),
    ...(placement.tags === undefined ? {} : { tags: [...placement.tags] }),
  } as Placement;
}

function samePlacement(wanted: Placement, current: Placement | undefined): boolean {
  const tags = (placement: Placement | undefined) => [...(placement?.tags ?? [])].sort().join(",");
  return (wanted.cluster ?? "") === (current?.cluster ?? "") && tags(wanted) === tags(current);
}
