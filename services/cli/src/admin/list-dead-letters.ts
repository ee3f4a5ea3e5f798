import type { JetStreamManager } from "@nats-io/jetstream";
import { isStreamNotFound } from "@troupe/client/internal";
import { streamNames } from "@troupe/protocol/internal";
import { DEFAULT_DEPLOYMENT_PREFIX } from "./admin-deps.js";

/**
 * One dead letter as `troupe dead-letters` shows it. JSON-serializable.
 *
 * Shape: `{ sequence, storedAtMs, deadLetterSubject, code, reason, subject,
 * actor?, inboxSeq?, sizeBytes?, contentType?, headers?, issues?, data? }`;
 * `subject` is the original message's, `data` its body in base64.
 */
export interface DeadLetterView {
  /** Sequence in the dead-letter stream. */
  readonly sequence: number;
  /** When the stream stored the dead letter, Unix ms. */
  readonly storedAtMs: number;
  /** `_troupe.deadletter.<kind>.<id>`, or `_troupe.deadletter.unroutable`. */
  readonly deadLetterSubject: string;
  /** e.g. `decode_failed:schema_invalid`, `invalid_address`, `unroutable_subject`. */
  readonly code: string;
  readonly reason: string;
  /** Subject of the original message. */
  readonly subject: string;
  readonly actor?: string;
  readonly inboxSeq?: number;
  readonly sizeBytes?: number;
  readonly contentType?: string;
  readonly headers?: Record<string, string[]>;
  readonly issues?: unknown[];
  readonly data?: string;
}

/** Options of {@link listDeadLetters}. */
export interface ListDeadLettersOptions {
  /** The deployment's JetStream manager. */
  readonly jsm: JetStreamManager;
  /** Deployment prefix; default `"troupe"`. */
  readonly prefix?: string;
  /** At most this many, newest first; default 20. */
  readonly limit?: number;
}

/**
 * The newest dead letters of a deployment, newest first, read one by one from
 * the dead-letter stream (`<P>_DEADLETTER`) by sequence. Read-only. A record
 * that is not JSON is shown with code `?` and its text as the reason.
 *
 * @param options - `jsm`, `prefix` (default `"troupe"`), `limit` (default 20).
 * @returns the dead letters; `[]` when the stream is empty or does not exist.
 * @throws RangeError when `limit` is not a whole number from 1.
 */
export async function listDeadLetters(options: ListDeadLettersOptions): Promise<DeadLetterView[]> {
  const limit = options.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a whole number from 1, not ${String(limit)}`);
  }
  const stream = streamNames(options.prefix ?? DEFAULT_DEPLOYMENT_PREFIX).deadLetter;
  let first: number;
  let last: number;
  try {
    const info = await options.jsm.streams.info(stream);
    first = info.state.first_seq;
    last = info.state.last_seq;
  } catch (error) {
    if (isStreamNotFound(error)) return [];
    throw error;
  }
  const letters: DeadLetterView[] = [];
  // Deleted sequences are skipped; look at most 4 × limit sequences back.
  for (
    let seq = last;
    seq >= Math.max(first, 1, last - limit * 4) && letters.length < limit;
    seq -= 1
  ) {
    const stored = await options.jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (stored === null) continue;
    letters.push(viewOf(stored.seq, stored.time.getTime(), stored.subject, stored.string()));
  }
  return letters;
}

function viewOf(
  sequence: number,
  storedAtMs: number,
  deadLetterSubject: string,
  text: string,
): DeadLetterView {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    record =
      typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {
      sequence,
      storedAtMs,
      deadLetterSubject,
      code: "?",
      reason: text.slice(0, 300),
      subject: "?",
    };
  }
  const stringField = (key: string): string | undefined => {
    const value = record[key];
    return typeof value === "string" ? value : undefined;
  };
  const numberField = (key: string): number | undefined => {
    const value = record[key];
    return typeof value === "number" ? value : undefined;
  };
  const optional = {
    actor: stringField("actor"),
    inboxSeq: numberField("inboxSeq"),
    sizeBytes: numberField("sizeBytes"),
    contentType: stringField("contentType"),
    headers: record["headers"] as Record<string, string[]> | undefined,
    issues: Array.isArray(record["issues"]) ? (record["issues"] as unknown[]) : undefined,
    data: stringField("data"),
  };
  return {
    sequence,
    storedAtMs,
    deadLetterSubject,
    code: stringField("code") ?? "?",
    reason: stringField("reason") ?? "",
    subject: stringField("subject") ?? "?",
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
