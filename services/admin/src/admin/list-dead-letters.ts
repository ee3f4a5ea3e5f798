import type { JetStreamManager } from "@nats-io/jetstream";
import { isStreamNotFound } from "@troupe/client/internal";
import { parseShardInboxSubject, PUBLIC_SUBJECT_ROOT } from "@troupe/protocol";
import { streamNames } from "@troupe/protocol/internal";
import { DEFAULT_DEPLOYMENT_PREFIX } from "./admin-deps.js";

/** How many bytes of the original body {@link DeadLetterView.preview} shows: 64. */
export const DEAD_LETTER_PREVIEW_BYTES = 64;

/**
 * One dead letter as `troupe deadletters` shows it. JSON-serializable.
 *
 * Shape: `{ sequence, storedAtMs, deadLetterSubject, code, reason, subject,
 * publicSubject, actor?, inboxSeq?, sizeBytes?, contentType?, headers?,
 * issues?, data?, preview? }`; `subject` is the original message's as stored,
 * `publicSubject` the one a user published to, `data` its body in base64,
 * `preview` its first bytes as text.
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
  /** Subject of the original message as stored (the internal `_troupe.inbox.<shard>.<kind>.<id>` for an inbox message). */
  readonly subject: string;
  /**
   * The subject the message was published to: `troupe.<kind>.<id>.in`
   * for an inbox message (the server mapped it to its shard inbox subject),
   * else `subject`.
   */
  readonly publicSubject: string;
  readonly actor?: string;
  readonly inboxSeq?: number;
  readonly sizeBytes?: number;
  readonly contentType?: string;
  readonly headers?: Record<string, string[]>;
  readonly issues?: unknown[];
  readonly data?: string;
  /**
   * The first {@link DEAD_LETTER_PREVIEW_BYTES} bytes of the body as UTF-8 text
   * (`…` appended when cut); absent when the body was not kept.
   */
  readonly preview?: string;
}

/** Options of {@link listDeadLetters}. */
export interface ListDeadLettersOptions {
  /** The deployment's JetStream manager. */
  readonly jsm: JetStreamManager;
  /** Deployment prefix; default `"troupe"`. */
  readonly prefix?: string;
  /** At most this many, newest first; default 20. */
  readonly limit?: number;
  /** Only dead letters stored at or after this time, Unix ms; default: all. */
  readonly sinceMs?: number;
}

/**
 * The newest dead letters of a deployment, newest first, read one by one from
 * the dead-letter stream (`<P>_DEADLETTER`) by sequence. Read-only. A record
 * that is not JSON is shown with code `?` and its text as the reason.
 *
 * The stream stores in time order, so reading stops at the first one older
 * than `sinceMs`.
 *
 * @param options - `jsm`, `prefix` (default `"troupe"`), `limit` (default 20),
 *   `sinceMs` (Unix ms; default: no bound).
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
    const storedAtMs = stored.time.getTime();
    if (options.sinceMs !== undefined && storedAtMs < options.sinceMs) break;
    letters.push(viewOf(stored.seq, storedAtMs, stored.subject, stored.string()));
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
      publicSubject: "?",
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
    preview: previewOf(stringField("data")),
  };
  const subject = stringField("subject") ?? "?";
  return {
    sequence,
    storedAtMs,
    deadLetterSubject,
    code: stringField("code") ?? "?",
    reason: stringField("reason") ?? "",
    subject,
    publicSubject: publicSubjectOf(subject),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

/**
 * The subject a user published to: `_troupe.inbox.<shard>.<kind>.<id>` (where
 * the server's mapping put a publish to `troupe.<kind>.<id>.in`) back to the
 * latter; any other subject as it is. Pure.
 *
 * @param subject - a stored subject.
 * @example publicSubjectOf("_troupe.inbox.7.session.demo-1") // "troupe.session.demo-1.in"
 */
export function publicSubjectOf(subject: string): string {
  try {
    const { kind, id } = parseShardInboxSubject(subject);
    return `${PUBLIC_SUBJECT_ROOT}.${kind}.${id}.in`;
  } catch {
    return subject;
  }
}

/** The first {@link DEAD_LETTER_PREVIEW_BYTES} bytes of a base64 body as text. */
function previewOf(data: string | undefined): string | undefined {
  if (data === undefined) return undefined;
  const bytes = Buffer.from(data, "base64");
  const text = bytes.subarray(0, DEAD_LETTER_PREVIEW_BYTES).toString("utf8");
  return bytes.length > DEAD_LETTER_PREVIEW_BYTES ? `${text}…` : text;
}
