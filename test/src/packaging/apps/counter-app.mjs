/**
 * A plain xstate counter hosted on `@troupe/runtime` alone: copied into a
 * fresh npm project that installed the packed `@troupe/protocol` and
 * `@troupe/runtime` (plus `xstate`, `zod` and `@nats-io/transport-node`, which
 * this app uses itself), and run there with plain `node`.
 *
 * Starts an actor host for the `counter` kind, publishes `increments`
 * `counter.increment { by: n }` messages (n = 1, 2, …) to
 * `troupe.counter.<id>.in`, waits for one `counter.changed` event per
 * increment, stops the host and prints one line `result <json>`.
 *
 * Environment: `TROUPE_NATS_URL`, `TROUPE_REDIS_URL`, `TROUPE_PREFIX`,
 * `TROUPE_SHARD_COUNT` (must match the server's inbox mapping), `COUNTER_ID`,
 * `COUNTER_INCREMENTS`, `COUNTER_TIMEOUT_MS` (how long to wait for the events).
 */
import { connect, headers } from "@nats-io/transport-node";
import {
  CONTENT_TYPE_HEADER,
  decodeEvent,
  encodeMessage,
  eventWildcard,
  inboxSubject,
} from "@troupe/protocol";
import { ActorHost, defineActorKind } from "@troupe/runtime";
import { assign, emit, setup } from "xstate";
import { z } from "zod";

/** @param {string} name */
function required(name) {
  const value = process.env[name];
  if (value === undefined) throw new Error(`counter-app: ${name} is required`);
  return value;
}

const natsUrl = required("TROUPE_NATS_URL");
const redisUrl = required("TROUPE_REDIS_URL");
const prefix = required("TROUPE_PREFIX");
const shardCount = Number(required("TROUPE_SHARD_COUNT"));
const counterId = required("COUNTER_ID");
const increments = Number(required("COUNTER_INCREMENTS"));
const timeoutMs = Number(required("COUNTER_TIMEOUT_MS"));

const counterMachine = setup({
  types: {
    context: /** @type {{ count: number }} */ ({}),
    events: /** @type {{ type: "counter.increment"; by: number }} */ ({}),
  },
}).createMachine({
  id: "counter",
  context: { count: 0 },
  on: {
    "counter.increment": {
      actions: [
        assign({ count: ({ context, event }) => context.count + event.by }),
        emit(({ context }) => ({ type: "counter.changed", count: context.count })),
      ],
    },
  },
});

const counter = defineActorKind({
  kind: "counter",
  machine: counterMachine,
  version: "1",
  messageSchemas: { "counter.increment": z.object({ by: z.number().int() }) },
});
const counterEventSchemas = { "counter.changed": z.object({ count: z.number() }) };

const address = { kind: "counter", id: counterId };
const nats = await connect({ servers: natsUrl });
// Subscribed before anything is sent, so no event is missed; ends by itself
// after `increments` events, or when the time is up.
const changes = nats.subscribe(eventWildcard(address), { max: increments });
const giveUp = setTimeout(() => changes.unsubscribe(), timeoutMs);
const host = await ActorHost.start({
  nats,
  redis: redisUrl,
  kinds: [counter],
  settings: { prefix, shardCount },
});

/** @type {number[]} */
const inboxSequences = [];
for (let n = 1; n <= increments; n += 1) {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `${counterId}-increment-${n}`,
    type: "counter.increment",
    payload: { by: n },
    meta: { timestampMs: Date.now() },
  });
  const messageHeaders = headers();
  messageHeaders.set(CONTENT_TYPE_HEADER, contentType);
  // A request to a subject a stream captures is answered with the stream's ack.
  const reply = await nats.request(inboxSubject(address), bytes, {
    headers: messageHeaders,
    timeout: 5_000,
  });
  inboxSequences.push(/** @type {{ seq: number }} */ (reply.json()).seq);
}

/** @type {{ count: number; seq: number }[]} */
const changed = [];
for await (const message of changes) {
  const event = decodeEvent(message.data, {
    contentType: message.headers?.get(CONTENT_TYPE_HEADER),
    subject: message.subject,
    schemas: counterEventSchemas,
  });
  changed.push({ count: event.payload.count, seq: event.meta.seq });
}
clearTimeout(giveUp);

await host.stop();
await nats.close();
process.stdout.write(
  `result ${JSON.stringify({ hostId: host.hostId, inboxSequences, changed, count: changed.at(-1)?.count })}\n`,
);
