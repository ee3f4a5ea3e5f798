import {
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from "@nats-io/jetstream";
import { parseShardInboxSubject, shardOf } from "@troupe/protocol";

/**
 * Kind token of the marker and probe messages `changeShardCount` publishes to
 * `troupe.<kind>.<id>.in` (not a valid actor kind, so no actor can have it).
 * Catch-up scans skip them; the marker itself is the first sequence no shard
 * consumer reads.
 */
export const SHARD_COUNT_MARKER_KIND = "_troupe-resize";

/** What {@link scanForCatchUp} needs. */
export interface CatchUpScan {
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** The inbox stream's name. */
  readonly stream: string;
  /** First inbox sequence to read (the shard's saved watermark). */
  readonly fromSeq: number;
  /** The change's marker: the scan stops before it. */
  readonly markerSeq: number;
  /** The shard being started and the deployment's (new) shard count. */
  readonly shard: number;
  readonly shardCount: number;
  /** Called, in stream order, with each message below the marker whose actor is on `shard`. */
  readonly onMessage: (message: JsMsg) => void;
  /** Called with each sequence read and not handed to `onMessage`. */
  readonly onSkipped: (seq: number) => void;
  /** Stops the scan (the worker stopped). */
  readonly signal: AbortSignal;
}

/**
 * After a change of the shard count (docs/decisions/0035): reads
 * the whole inbox from `fromSeq` up to (not including) the marker with an
 * ordered consumer, and hands every message whose actor maps to `shard` under
 * the new count to `onMessage`, in stream order. Messages below the marker were
 * written under the old mapping, so their subject's shard number says nothing
 * about the new shard; the address in the subject decides. Marker and probe
 * messages, and subjects that are not shard inbox subjects, are skipped.
 *
 * Messages some old owner already applied are handed over too; the step skips
 * whatever the actor's snapshot already reflects (its `inboxSeq`).
 *
 * @param scan - see {@link CatchUpScan}.
 * @returns once every message below the marker was read (or the stream holds
 *   nothing from `fromSeq` on), or the signal aborted.
 */
export async function scanForCatchUp(scan: CatchUpScan): Promise<void> {
  const lastSeq = (await scan.jsm.streams.info(scan.stream)).state.last_seq;
  if (lastSeq < scan.fromSeq || scan.fromSeq >= scan.markerSeq) return;
  const consumer = await scan.js.consumers.get(scan.stream, {
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: scan.fromSeq,
  });
  const messages = await consumer.consume({ max_messages: 256 });
  const stop = () => void messages.close().catch(() => undefined);
  scan.signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const message of messages) {
      if (message.seq >= scan.markerSeq || scan.signal.aborted) break;
      if (belongsTo(message.subject, scan.shard, scan.shardCount)) scan.onMessage(message);
      else scan.onSkipped(message.seq);
      // Nothing left in the stream: the marker was removed (retention).
      if (message.info.pending === 0) break;
    }
  } finally {
    scan.signal.removeEventListener("abort", stop);
    await messages.close().catch(() => undefined);
  }
}

function belongsTo(subject: string, shard: number, shardCount: number): boolean {
  try {
    const { kind, id } = parseShardInboxSubject(subject);
    return kind !== SHARD_COUNT_MARKER_KIND && shardOf({ kind, id }, shardCount) === shard;
  } catch {
    return false;
  }
}
