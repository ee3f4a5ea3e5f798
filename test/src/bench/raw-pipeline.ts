import { createHash } from "node:crypto";
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from "@nats-io/jetstream";
import { connect, headers, nanos } from "@nats-io/transport-node";
import { hostSettingsSchema } from "@troupe/runtime";
import { type StreamNames } from "@troupe/protocol";
import { eventSubject, parseShardInboxSubject, shardInboxFilter } from "@troupe/protocol";
import { Redis } from "ioredis";
import { createConcurrencyLimit } from "./concurrency-limit.js";

/**
 * The raw floor's write: compare-and-set of the generation, then the new
 * generation and snapshot bytes into the actor's hash (a subset of the host's
 * commit script, which also checks the lease token, keeps history and tracks
 * dirty actors and timers).
 */
const compareAndSetSource = `
local gen = redis.call('HGET', KEYS[1], 'gen') or '0'
if gen ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'gen', ARGV[2], 'data', ARGV[3])
return 1
`;

/** Options of {@link startRawPipeline}. */
export interface RawPipelineOptions {
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** Streams to read the inbox from and write events to (the host's layout). */
  readonly streams: StreamNames;
  readonly shardCount: number;
  /** Messages in flight at once (the host's `maxConcurrency`). */
  readonly maxConcurrency: number;
  /** Size of the snapshot written per message, in bytes. */
  readonly snapshotBytes: number;
  /** Size of the event published per message, in bytes. */
  readonly eventBytes: number;
  /** `Content-Type` header of the event. */
  readonly eventContentType: string;
}

/** A running raw floor; see {@link startRawPipeline}. */
export interface RawPipeline {
  /** Messages whose round trips failed (should stay 0). */
  readonly failures: () => number;
  /** Stops consuming, waits for messages in hand, closes its connections. */
  stop(): Promise<void>;
}

/**
 * The infrastructure floor of the actor host: per inbox message only the round
 * trips the host cannot avoid — delivery from a per-shard pull consumer (same
 * configuration as the host's), one `EVALSHA` compare-and-set on a hash holding a
 * snapshot-sized value, one JetStream publish of an event-sized body with a
 * `Nats-Msg-Id` and a stream ack, then the message ack. Like the host it runs one
 * message at a time per actor and at most `maxConcurrency` at once, on its own
 * NATS connection and Redis client (auto-pipelined). No decoding, no machine.
 *
 * @param options - servers, streams, concurrency and sizes.
 * @returns the running pipeline.
 */
export async function startRawPipeline(options: RawPipelineOptions): Promise<RawPipeline> {
  const settings = hostSettingsSchema.parse({});
  const nats = await connect({ servers: options.natsUrl, name: "raw-floor" });
  const redis = new Redis(options.redisUrl, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
  });
  const js = jetstream(nats);
  const jsm = await jetstreamManager(nats);
  const sha = createHash("sha1").update(compareAndSetSource).digest("hex");
  await redis.script("LOAD", compareAndSetSource);
  const snapshot = Buffer.alloc(options.snapshotBytes, 0x61);
  const event = new Uint8Array(options.eventBytes).fill(0x62);
  const generations = new Map<string, number>();
  const tails = new Map<string, Promise<void>>();
  const limit = createConcurrencyLimit(options.maxConcurrency);
  let failures = 0;

  const handle = async (message: JsMsg, kind: string, id: string): Promise<void> => {
    const actor = `${kind}/${id}`;
    const generation = generations.get(actor) ?? 0;
    const reply = await redis.evalsha(
      sha,
      1,
      `raw:actor:${actor}`,
      generation,
      generation + 1,
      snapshot,
    );
    if (reply !== 1)
      throw new Error(`compare-and-set of ${actor} failed at generation ${generation}`);
    generations.set(actor, generation + 1);
    const eventHeaders = headers();
    eventHeaders.set("Content-Type", options.eventContentType);
    await js.publish(eventSubject({ kind, id }, "counter.changed"), event, {
      msgID: `${actor}:ev:${generation + 1}`,
      headers: eventHeaders,
    });
    message.ack();
  };

  const dispatch = (message: JsMsg): void => {
    const { kind, id } = parseShardInboxSubject(message.subject);
    const actor = `${kind}/${id}`;
    const tail = (tails.get(actor) ?? Promise.resolve())
      .then(() => limit(() => handle(message, kind, id)))
      .catch((error: unknown) => {
        failures += 1;
        process.stderr.write(`raw floor: ${String(error)}\n`);
      });
    tails.set(actor, tail);
    void tail.then(() => {
      if (tails.get(actor) === tail) tails.delete(actor);
    });
  };

  // Like the host's shard workers, every shard's consumer is set up at once.
  const consumers: ConsumerMessages[] = await Promise.all(
    Array.from({ length: options.shardCount }, async (_, shard) => {
      const name = `raw-floor-shard-${shard}`;
      await jsm.consumers.delete(options.streams.inbox, name).catch(() => false);
      await jsm.consumers.add(options.streams.inbox, {
        durable_name: name,
        filter_subject: shardInboxFilter(shard),
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(settings.ackWaitMs),
        max_ack_pending: settings.maxAckPendingPerShard,
        deliver_policy: DeliverPolicy.All,
      });
      const consumer = await js.consumers.get(options.streams.inbox, name);
      return consumer.consume({ max_messages: Math.min(512, settings.maxAckPendingPerShard) });
    }),
  );
  const loops = consumers.map(async (messages) => {
    for await (const message of messages) dispatch(message);
  });

  return {
    failures: () => failures,
    async stop() {
      await Promise.allSettled(consumers.map((messages) => messages.close()));
      await Promise.allSettled(loops);
      await Promise.allSettled([...tails.values()]);
      await nats.drain().catch(() => undefined);
      await redis.quit().catch(() => undefined);
    },
  };
}
