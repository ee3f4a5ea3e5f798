import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";

/** The floors of the gateway benchmark; see {@link measureFloors}. */
export interface GatewayFloors {
  /** Core NATS request → reply between two connections, in ms. */
  readonly natsRequestReply: LatencySummary;
  /** JetStream publish (with its ack) → delivery on an ordered consumer, in ms. */
  readonly jetStreamPublishConsume: LatencySummary;
  /** HTTP `GET` of an unknown `/v1` route on the gateway → its 404 JSON body, in ms. */
  readonly gatewayHttpRoundTrip: LatencySummary;
}

/** Options of {@link measureFloors}. */
export interface FloorOptions {
  /** A connection to the deployment's server (the responder side). */
  readonly nats: NatsConnection;
  readonly natsUrl: string;
  readonly gatewayUrl: string;
  readonly samples: number;
  readonly warmup: number;
  /** Longest wait for one sample, in ms. */
  readonly timeoutMs: number;
}

const floorStream = "BENCH_GATEWAY_FLOOR";
const floorSubject = "bench.gateway.floor.js";

/**
 * The raw floors a gateway turn sits on (issue #16), measured in the same run
 * on the same servers, one sample at a time:
 *
 * - core NATS request/reply: a responder on `options.nats`, the requester on a
 *   second connection (what any gateway → NATS → process hop costs at least);
 * - JetStream publish (stream ack) → delivery on an ordered consumer of a
 *   scratch file-storage stream (a published message reaching a reader, the
 *   least a durable event costs between a host and a follower);
 * - an HTTP round trip to the gateway process that touches no NATS: `GET` of an
 *   unknown `/v1` route, answered 404 by its middleware chain.
 *
 * @param options - connections, sample counts, timeout.
 * @returns the three summaries.
 * @throws Error when a sample times out or the gateway answers other than 404.
 */
export async function measureFloors(options: FloorOptions): Promise<GatewayFloors> {
  return {
    natsRequestReply: await measureRequestReply(options),
    jetStreamPublishConsume: await measurePublishConsume(options),
    gatewayHttpRoundTrip: await measureHttpRoundTrip(options),
  };
}

async function measureRequestReply(options: FloorOptions): Promise<LatencySummary> {
  const subject = "bench.gateway.floor.echo";
  const responder = options.nats.subscribe(subject, {
    callback: (error, message) => {
      if (error === null) message.respond(message.data);
    },
  });
  await options.nats.flush();
  const requester = await connect({ servers: options.natsUrl });
  try {
    const durationsMs: number[] = [];
    const payload = new Uint8Array(256);
    for (let index = 0; index < options.warmup + options.samples; index += 1) {
      const startedAtMs = performance.now();
      await requester.request(subject, payload, { timeout: options.timeoutMs });
      if (index >= options.warmup) durationsMs.push(performance.now() - startedAtMs);
    }
    return summarizeLatencies(durationsMs);
  } finally {
    responder.unsubscribe();
    await requester.close();
  }
}

async function measurePublishConsume(options: FloorOptions): Promise<LatencySummary> {
  const jsm = await jetstreamManager(options.nats);
  await jsm.streams.delete(floorStream).catch(() => false);
  await jsm.streams.add({ name: floorStream, subjects: [floorSubject] });
  const publisher = await connect({ servers: options.natsUrl });
  try {
    const js = jetstream(publisher);
    const consumer = await jetstream(options.nats).consumers.get(floorStream);
    const messages = await consumer.consume();
    let onMessage: ((atMs: number) => void) | undefined;
    const loop = (async () => {
      for await (const message of messages) {
        onMessage?.(performance.now());
        message.ack();
      }
    })();
    const durationsMs: number[] = [];
    const payload = new Uint8Array(256);
    try {
      for (let index = 0; index < options.warmup + options.samples; index += 1) {
        let timer: NodeJS.Timeout | undefined;
        const arrived = new Promise<number>((resolve, reject) => {
          onMessage = resolve;
          timer = setTimeout(
            () => reject(new Error(`no delivery within ${options.timeoutMs} ms`)),
            options.timeoutMs,
          );
        });
        const startedAtMs = performance.now();
        try {
          await js.publish(floorSubject, payload);
          const arrivedAtMs = await arrived;
          if (index >= options.warmup) durationsMs.push(arrivedAtMs - startedAtMs);
        } finally {
          clearTimeout(timer);
          onMessage = undefined;
        }
      }
    } finally {
      await messages.close();
      await loop;
    }
    return summarizeLatencies(durationsMs);
  } finally {
    await publisher.close();
    await jsm.streams.delete(floorStream).catch(() => false);
  }
}

async function measureHttpRoundTrip(options: FloorOptions): Promise<LatencySummary> {
  const durationsMs: number[] = [];
  for (let index = 0; index < options.warmup + options.samples; index += 1) {
    const startedAtMs = performance.now();
    const response = await fetch(`${options.gatewayUrl}/v1/bench-floor`, {
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.text();
    if (response.status !== 404) throw new Error(`GET /v1/bench-floor: ${response.status}`);
    if (index >= options.warmup) durationsMs.push(performance.now() - startedAtMs);
  }
  return summarizeLatencies(durationsMs);
}
