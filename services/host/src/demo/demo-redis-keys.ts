import { DEFAULT_DEPLOYMENT_PREFIX } from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";

const keys = new RedisKeys(DEFAULT_DEPLOYMENT_PREFIX);

/**
 * Redis hash of the demo's notes of one session (`troupe:demo:notes:<sessionId>`):
 * field = note title, value = note text (`save_note`). One per session, so a
 * new session starts with no notes.
 *
 * @param sessionId - the session whose run called `save_note`.
 */
export function demoNotesKey(sessionId: string): string {
  return keys.demoNotes(sessionId);
}

/** Redis list of the demo's "sent" emails (`troupe:demo:outbox`), one JSON {@link DemoOutboxRecord} per entry (`send_email`). */
export const DEMO_OUTBOX_KEY = keys.demoOutbox();

/**
 * One entry of {@link DEMO_OUTBOX_KEY}: an email the demo pretended to send.
 *
 * Shape: `{ to: string, subject: string, body: string, idempotencyKey: string, atMs: number }`;
 * `atMs` is Unix time in ms.
 */
export interface DemoOutboxRecord {
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  /** The tool call's `<sessionId>/<runId>/<toolCallId>`. */
  readonly idempotencyKey: string;
  /** When the tool ran, Unix ms. */
  readonly atMs: number;
}
