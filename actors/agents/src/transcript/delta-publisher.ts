import { headers, type NatsConnection } from "@nats-io/transport-node";
import {
  CONTENT_TYPE_HEADER,
  deltaSubject,
  encodeEvent,
  eventSubject,
  EXPECTED_STREAM_HEADER,
  type ModelCallDelta,
  type ToolProgress,
} from "@troupe/protocol";

/**
 * What a `run.delta` event needs of a model-call delta (see `ModelCallDelta` of
 * `@troupe/protocol`, which the `model.call` handler produces).
 */
export type PublishableDelta = Pick<
  ModelCallDelta,
  | "sessionId"
  | "parentSessionId"
  | "runId"
  | "modelCallId"
  | "streamAttempt"
  | "kind"
  | "text"
  | "index"
>;

/**
 * Publishes `run.delta` events while a model call streams: transient events
 * (`meta.transient: true`, `meta.seq: 0`), fire-and-forget (core NATS, no
 * `Nats-Msg-Id`), each twice (docs/decisions/0014):
 *
 * 1. on the public `troupe.session.<id>.events.run.delta` (the parent session's
 *    subject for a subagent's run) for live subscribers, with
 *    `Nats-Expected-Stream: <deltaStream>` so the events stream, which
 *    captures that subject, does not store it;
 * 2. on `_troupe.delta.<sessionId>` (`deltaSubject`, same session id), stored
 *    by the deltas stream for its retention (default 1 h), where a client
 *    reconnecting mid-answer reads it back.
 *
 * They are not journaled and not in snapshots. The event's `attempt` is the
 * delta's stream attempt: a client that sees a higher one for the same
 * `modelCallId` discards the text of the lower one. The event id
 * `run/<sessionId>:delta:<modelCallId>:<streamAttempt>:<index>` lets a client
 * recognise a republished delta (JetStream does not deduplicate them).
 *
 * @param nats - connection to publish on.
 * @param deltaStream - name of the deployment's deltas stream, e.g. `TROUPE_DELTAS`.
 * @returns a function publishing one delta.
 * @throws from the returned function: nats.js errors of a closed connection.
 */
export function createDeltaPublisher(
  nats: NatsConnection,
  deltaStream: string,
): (delta: PublishableDelta) => void {
  return (delta) => {
    const actor = `run/${delta.sessionId}`;
    const encoded = encodeEvent({
      v: 1,
      id: `${actor}:delta:${delta.modelCallId}:${delta.streamAttempt}:${delta.index}`,
      type: "run.delta",
      payload: {
        runId: delta.runId,
        modelCallId: delta.modelCallId,
        attempt: delta.streamAttempt,
        kind: delta.kind,
        text: delta.text,
        index: delta.index,
      },
      meta: { actor, seq: 0, transient: true, timestampMs: Date.now() },
    });
    publishTransientEvent(
      nats,
      deltaStream,
      delta.parentSessionId ?? delta.sessionId,
      "run.delta",
      encoded,
    );
  };
}

/** What a `tool.progress` event needs: the call, the session whose subjects carry it and the report. */
export interface PublishableToolProgress {
  /** The session whose subjects carry the event (the tool call's session). */
  readonly sessionId: string;
  /** The tool call actor, `tool/<id>` (the event's `meta.actor`). */
  readonly actor: string;
  readonly payload: ToolProgress;
}

/**
 * Publishes `tool.progress` events (docs/decisions/0024) the way {@link createDeltaPublisher}
 * publishes deltas: transient, fire-and-forget, on the public
 * `troupe.session.<id>.events.tool.progress` (not stored by the events stream)
 * and on `_troupe.delta.<sessionId>` (stored by the deltas stream), so
 * `TroupeClient.events` merges them in. Event id
 * `<actor>:progress:<index>`.
 *
 * @param nats - connection to publish on.
 * @param deltaStream - name of the deployment's deltas stream.
 * @returns a function publishing one report.
 * @throws from the returned function: nats.js errors of a closed connection.
 */
export function createToolProgressPublisher(
  nats: NatsConnection,
  deltaStream: string,
): (progress: PublishableToolProgress) => void {
  return ({ sessionId, actor, payload }) => {
    const encoded = encodeEvent({
      v: 1,
      id: `${actor}:progress:${payload.toolCallId}:${payload.index}`,
      type: "tool.progress",
      payload,
      meta: { actor, seq: 0, transient: true, timestampMs: Date.now() },
    });
    publishTransientEvent(nats, deltaStream, sessionId, "tool.progress", encoded);
  };
}

/** Publishes an encoded transient event on the session's public subject (not stored by the events stream) and on its deltas subject. */
function publishTransientEvent(
  nats: NatsConnection,
  deltaStream: string,
  sessionId: string,
  type: string,
  encoded: { readonly bytes: Uint8Array; readonly contentType: string },
): void {
  const liveHeaders = headers();
  liveHeaders.set(CONTENT_TYPE_HEADER, encoded.contentType);
  liveHeaders.set(EXPECTED_STREAM_HEADER, deltaStream);
  nats.publish(eventSubject({ kind: "session", id: sessionId }, type), encoded.bytes, {
    headers: liveHeaders,
  });
  const storedHeaders = headers();
  storedHeaders.set(CONTENT_TYPE_HEADER, encoded.contentType);
  nats.publish(deltaSubject(sessionId), encoded.bytes, { headers: storedHeaders });
}
