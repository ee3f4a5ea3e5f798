import { setTimeout as sleep } from "node:timers/promises";
import type { JetStreamManager } from "@nats-io/jetstream";

/** What a JetStream stream holds. */
export interface StreamCounts {
  readonly messages: number;
  readonly bytes: number;
  /** Sequence of the last message stored (0 when none). */
  readonly lastSeq: number;
}

/**
 * The stream's `state` now.
 *
 * @param jsm - JetStream manager.
 * @param stream - stream name.
 * @returns messages, bytes and last sequence.
 */
export async function streamCounts(jsm: JetStreamManager, stream: string): Promise<StreamCounts> {
  const { state } = await jsm.streams.info(stream);
  return { messages: state.messages, bytes: state.bytes, lastSeq: state.last_seq };
}

/**
 * The stream's state once it stopped growing: the last sequence stayed the same
 * over `quietMs` (the trailing messages of a turn, such as the session's
 * `run.finished`, are stored after the client saw `run.completed`).
 *
 * @param jsm - JetStream manager.
 * @param stream - stream name.
 * @param options - `quietMs` (default 150) and `timeoutMs` (default 5 000).
 * @returns the settled state.
 * @throws Error when the stream keeps growing past `timeoutMs`.
 */
export async function settledStreamCounts(
  jsm: JetStreamManager,
  stream: string,
  options: { quietMs?: number; timeoutMs?: number } = {},
): Promise<StreamCounts> {
  const quietMs = options.quietMs ?? 150;
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  let last = await streamCounts(jsm, stream);
  while (Date.now() < deadline) {
    await sleep(quietMs);
    const next = await streamCounts(jsm, stream);
    if (next.lastSeq === last.lastSeq) return next;
    last = next;
  }
  throw new Error(`stream ${stream} still growing after ${options.timeoutMs ?? 5_000} ms`);
}
