import { encodeActorRecord, processMessage } from "@troupe/runtime/internal";
import { encodeMessage, inboxSubject, parseAddress } from "@troupe/protocol";
import { counterKind } from "../fixtures/counter-machine.js";

/** Sizes of what the host reads and writes for one `counter.increment`, in bytes. */
export interface CounterRecordSizes {
  /** The stored snapshot record (msgpack), as written to Redis. */
  readonly snapshotBytes: number;
  /** The body of the `counter.changed` event. */
  readonly eventBytes: number;
  /** Content type of that event body. */
  readonly eventContentType: string;
}

/**
 * Runs the host's pure step once for a counter with a 4-digit count, so the raw
 * floor can write a hash field and publish an event of the same sizes as the host.
 *
 * @returns the sizes in bytes.
 * @throws Error when the step does not commit (the fixture changed).
 */
export function counterRecordSizes(): CounterRecordSizes {
  const address = parseAddress("counter/a999");
  const encoded = encodeMessage({
    v: 1,
    id: "bench-size-probe",
    type: "counter.increment",
    payload: { by: 1000 },
    meta: { timestampMs: Date.now() },
  });
  const result = processMessage(
    undefined,
    {
      seq: 20_000,
      subject: inboxSubject(address),
      data: encoded.bytes,
      contentType: encoded.contentType,
      timestampMs: Date.now(),
    },
    { definition: counterKind, address },
  );
  const event = result.outcome === "committed" ? result.record.outbox[0] : undefined;
  if (result.outcome !== "committed" || event === undefined) {
    throw new Error("the counter step did not commit an event; the fixture changed");
  }
  return {
    snapshotBytes: encodeActorRecord(result.record).byteLength,
    eventBytes: event.body.byteLength,
    eventContentType: event.contentType,
  };
}
