import type { JetStreamManager } from "@nats-io/jetstream";

/**
 * How many messages a stream holds now on the subjects matching `filter`
 * (the per-subject counts of a filtered stream info, summed).
 *
 * @param jsm - JetStream manager.
 * @param stream - stream name.
 * @param filter - subject filter, wildcards allowed.
 * @throws the nats.js error when the stream does not exist (see `isStreamNotFound`).
 */
export async function countStoredMessages(
  jsm: JetStreamManager,
  stream: string,
  filter: string,
): Promise<number> {
  const info = await jsm.streams.info(stream, { subjects_filter: filter });
  return Object.values(info.state.subjects ?? {}).reduce((total, count) => total + count, 0);
}
