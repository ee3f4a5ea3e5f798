import type { NatsConnection } from "@nats-io/transport-node";
import type { TroupeClient } from "@troupe/client";
import { decodeEvent, eventWildcard } from "@troupe/protocol";
import type { CpuTimesMs } from "../process-cpu.js";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { cpuBetween } from "../turns/thread-cpu.js";
import { epochNowMs } from "../turns/turn-driver.js";
import { waitFor } from "../../support/wait-for.js";
import { deliveryLatencies } from "./delivery-latency.js";
import { readResidentBytes, sampleResidentPeak } from "./process-memory.js";
import { followDirect, followSse, type SessionFollower } from "./session-followers.js";

/** How the followers read the session: SSE through the gateway, or `client.events` in this process. */
export type FanOutVia = "gateway" | "client";

/** How long a session must have published nothing to count as quiet, in ms. */
const quietMs = 200;

/** One fan-out level; see {@link measureFanOut}. */
export interface FanOutResult {
  readonly via: FanOutVia;
  readonly followers: number;
  /** Followers whose `GET …/events` did not answer 200 with a stream. */
  readonly openFailures: number;
  /** Time to open every follower (all requests at once), in ms. */
  readonly openMs: number;
  readonly turns: number;
  /** Events of the session published per measured turn (durable and transient). */
  readonly eventsPerTurn: number;
  /** Publish → arrival at a follower, over every (follower, event) pair delivered; undefined when none was. */
  readonly delivery?: LatencySummary;
  /**
   * Arrival at a follower minus the event's `meta.timestampMs` (the stored time
   * of the inbox message that caused it: taken by JetStream, not by this
   * process, so a busy reader does not move it; includes the host's work).
   */
  readonly sinceCause?: LatencySummary;
  /** (follower, event) pairs of the opened followers never delivered within the settle time. */
  readonly missing: number;
  readonly followersMissing: number;
  /** `missing` by event type. */
  readonly missingByType: Readonly<Record<string, number>>;
  /** Streams that ended or failed before the benchmark closed them (cut connections). */
  readonly cut: number;
  /** `client.sendAndWait` latency of the measured turns while the followers listened. */
  readonly turn: LatencySummary;
  /** CPU ms per turn by process label (`gateway`, `host`, `nats-server`, …) over the measured window. */
  readonly cpuPerTurnMs: Readonly<Record<string, number>>;
  /** The gateway's RSS before the followers opened and its peak during the turns, in bytes. */
  readonly gatewayRssBeforeBytes?: number;
  readonly gatewayRssPeakBytes?: number;
}

/** Options of {@link measureFanOut}. */
export interface FanOutOptions {
  readonly client: TroupeClient;
  /** A connection for the reference subscription. */
  readonly nats: NatsConnection;
  readonly gatewayUrl: string;
  readonly gatewayPid: number;
  readonly via: FanOutVia;
  readonly followers: number;
  readonly turns: number;
  readonly text: string;
  readonly turnTimeoutMs: number;
  /** Longest wait for every follower to have every event, in ms. */
  readonly settleTimeoutMs: number;
  /** CPU ms so far by process label. */
  readonly readCpu: () => Promise<CpuTimesMs>;
}

/**
 * SSE fan-out (issue #16): `followers` concurrent `GET /v1/sessions/:id/events`
 * streams of ONE fresh session (or, `via: "client"`, as many `client.events`
 * iterations in this process, the same through the client directly), while
 * `turns` sequential turns run through
 * `client.sendAndWait`. Each event's publish time is its arrival on a core
 * NATS subscription of this process to `troupe.session.<id>.events.>` (which
 * also carries the public copy of each `run.delta`); a follower's delivery
 * latency is its arrival of the same envelope id minus that. One warm-up turn,
 * which every follower must have received, precedes the measured ones.
 *
 * @param options - see {@link FanOutOptions}.
 * @returns the level's result.
 * @throws Error when a turn fails or no follower opened; a follower that fails
 *   to open, is cut or misses events is counted, not thrown.
 */
export async function measureFanOut(options: FanOutOptions): Promise<FanOutResult> {
  const { client, text, turnTimeoutMs } = options;
  const sessionId = `fan-out-${options.via}-${options.followers}`;
  await client.sendAndWait(sessionId, text, { timeoutMs: turnTimeoutMs });
  const lastEventId = String(await client.lastSequence());

  const published = new Map<string, number>();
  const typeOf = new Map<string, string>();
  const causedAtMs = new Map<string, number>();
  let record = false;
  let lastReferenceAtMs = 0;
  let warmupEnd: string | undefined;
  const reference = options.nats.subscribe(eventWildcard({ kind: "session", id: sessionId }), {
    callback: (error, message) => {
      if (error !== null) return;
      const atMs = epochNowMs();
      lastReferenceAtMs = atMs;
      let event: { id: string; type: string; meta: { timestampMs: number } };
      try {
        event = decodeEvent(message.data, {
          subject: message.subject,
          contentType: message.headers?.get("Content-Type"),
        });
      } catch {
        return; // not an event the followers could be matched on
      }
      if (record) {
        published.set(event.id, atMs);
        typeOf.set(event.id, event.type);
        causedAtMs.set(event.id, event.meta.timestampMs);
      } else if (event.type === "run.completed") warmupEnd = event.id;
    },
  });
  await options.nats.flush();

  const gatewayRssBeforeBytes = await readResidentBytes(options.gatewayPid);
  const arrivals = Array.from({ length: options.followers }, () => new Map<string, number>());
  const cut: Error[] = [];
  const openStartedAtMs = epochNowMs();
  const opened = await Promise.allSettled(
    arrivals.map((arrived) => {
      const onEvent = (event: { id: string }, atMs: number) => {
        if (!arrived.has(event.id)) arrived.set(event.id, atMs);
      };
      return options.via === "gateway"
        ? followSse(options.gatewayUrl, sessionId, { lastEventId, onEvent })
        : Promise.resolve(followDirect(client, sessionId, Number(lastEventId) + 1, onEvent));
    }),
  );
  const openMs = epochNowMs() - openStartedAtMs;
  const firstFailure = opened.find((result) => result.status === "rejected");
  if (firstFailure !== undefined && opened.every((result) => result.status === "rejected")) {
    reference.unsubscribe();
    throw new Error(`no follower opened: ${String(firstFailure.reason)}`);
  }
  const followers: SessionFollower[] = [];
  const followerArrivals: Map<string, number>[] = [];
  opened.forEach((result, index) => {
    if (result.status !== "fulfilled") return;
    followers.push(result.value);
    followerArrivals.push(arrivals[index]!);
    void result.value.ended.then((error) => {
      if (error !== undefined) cut.push(error);
    });
  });

  try {
    await client.sendAndWait(sessionId, text, { timeoutMs: turnTimeoutMs });
    await waitFor(
      () =>
        warmupEnd !== undefined &&
        followerArrivals.every((arrived) => arrived.has(warmupEnd as string)),
      { timeoutMs: options.settleTimeoutMs, description: "every follower has the warm-up turn" },
    ).catch(() => undefined);

    // Trailing events of a turn (e.g. `session.idle`) come after `run.completed`:
    // the window opens and closes when the session has been quiet for a while.
    const quiet = () =>
      waitFor(() => epochNowMs() - lastReferenceAtMs >= quietMs, {
        timeoutMs: options.settleTimeoutMs,
        intervalMs: 10,
        description: "the session is quiet",
      });
    await quiet();
    const cpuBefore = await options.readCpu();
    const rss = sampleResidentPeak(options.gatewayPid, 100);
    record = true;
    const turnMs: number[] = [];
    for (let turn = 0; turn < options.turns; turn += 1) {
      const startedAtMs = epochNowMs();
      const outcome = await client.sendAndWait(sessionId, text, { timeoutMs: turnTimeoutMs });
      if (outcome.status !== "completed") throw new Error(`fan-out turn: ${outcome.status}`);
      turnMs.push(epochNowMs() - startedAtMs);
    }
    await quiet();
    const allDelivered = () =>
      followerArrivals.every((arrived) => [...published.keys()].every((id) => arrived.has(id)));
    await waitFor(allDelivered, {
      timeoutMs: options.settleTimeoutMs,
      intervalMs: 20,
      description: "every follower has every event",
    }).catch(() => undefined);
    record = false;
    const cpu = cpuBetween(cpuBefore, await options.readCpu());
    const gatewayRssPeakBytes = await rss.stop();

    const delivered = deliveryLatencies(published, followerArrivals, typeOf);
    const sinceCause = deliveryLatencies(causedAtMs, followerArrivals).latenciesMs;
    return {
      via: options.via,
      followers: options.followers,
      openFailures: opened.length - followers.length,
      openMs,
      turns: options.turns,
      eventsPerTurn: published.size / options.turns,
      ...(delivered.latenciesMs.length === 0
        ? {}
        : { delivery: summarizeLatencies(delivered.latenciesMs) }),
      ...(sinceCause.length === 0 ? {} : { sinceCause: summarizeLatencies(sinceCause) }),
      missing: delivered.missing,
      followersMissing: delivered.followersMissing,
      missingByType: delivered.missingByType,
      cut: cut.length,
      turn: summarizeLatencies(turnMs),
      cpuPerTurnMs: Object.fromEntries(
        Object.entries(cpu).map(([label, spentMs]) => [label, spentMs / options.turns]),
      ),
      ...(gatewayRssBeforeBytes === undefined ? {} : { gatewayRssBeforeBytes }),
      ...(gatewayRssPeakBytes === undefined ? {} : { gatewayRssPeakBytes }),
    };
  } finally {
    reference.unsubscribe();
    for (const follower of followers) follower.close();
  }
}
