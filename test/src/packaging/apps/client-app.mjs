/**
 * A browser-free Node app that only sends messages and reads events: copied
 * into a fresh npm project that installed the packed `@troupe/protocol` and
 * `@troupe/client`, and run there with plain `node` (no tsx, no export
 * conditions). Configured by environment variables: `TROUPE_NATS_URL`,
 * `TROUPE_PREFIX` (deployment prefix) and `SESSION_ID`, a session that already
 * has stored events. Prints one line `result <json>`.
 */
import { TroupeClient } from "@troupe/client";

const natsUrl = process.env.TROUPE_NATS_URL;
const prefix = process.env.TROUPE_PREFIX;
const sessionId = process.env.SESSION_ID;
if (natsUrl === undefined || prefix === undefined || sessionId === undefined) {
  throw new Error("client-app: TROUPE_NATS_URL, TROUPE_PREFIX and SESSION_ID are required");
}

const client = await TroupeClient.connect({ natsUrl, prefix, connectTimeoutMs: 5_000 });
try {
  const message = { text: "hello from a packed client", clientMessageId: "packed-1" };
  const first = await client.send(sessionId, message);
  // The same client message id again: JetStream keeps the first copy only.
  const again = await client.send(sessionId, message);
  const storedEvents = await client.storedEventCount(sessionId);
  const lastSequence = await client.lastSequence();
  /** @type {{ sequence: number; type: string }[]} */
  const events = [];
  for await (const { sequence, event } of client.events(sessionId, {
    fromSequence: 1,
    signal: AbortSignal.timeout(5_000),
  })) {
    events.push({ sequence, type: event.type });
    if (events.length === storedEvents) break;
  }
  process.stdout.write(
    `result ${JSON.stringify({ first, again, storedEvents, lastSequence, events })}\n`,
  );
} finally {
  await client.close();
}
