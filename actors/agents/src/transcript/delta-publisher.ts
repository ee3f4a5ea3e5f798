import { headers, type NatsConnection } from "@nats-io/transport-node";
import {
  CONTENT_TYPE_HEADER,
  encodeEvent,
  eventSubject,
  type ModelCallDelta,
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
 * (`meta.transient: true`, `meta.seq: 0`) on `troupe.session.<id>.events.run.delta`,
 * fire-and-forget — on the parent session's subject for a subagent's run. They
 * are not journaled and not in snapshots. The event's `attempt` is the delta's
 * stream attempt: a client that sees a higher one for the same `modelCallId`
 * discards the text of the lower one. The event id
 * `run/<sessionId>:delta:<modelCallId>:<streamAttempt>:<index>` makes a
 * republished delta a duplicate.
 *
 * @param nats - connection to publish on.
 * @returns a function publishing one delta.
 */
export function createDeltaPublisher(nats: NatsConnection): (delta: PublishableDelta) => void {
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
    const messageHeaders = headers();
    messageHeaders.set(CONTENT_TYPE_HEADER, encoded.contentType);
    nats.publish(
      eventSubject({ kind: "session", id: delta.parentSessionId ?? delta.sessionId }, "run.delta"),
      encoded.bytes,
      {
        headers: messageHeaders,
      },
    );
  };
}
