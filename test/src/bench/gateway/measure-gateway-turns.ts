import type { TroupeClient } from "@troupe/client";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { epochNowMs } from "../turns/turn-driver.js";
import type { Arrival } from "./arrival-waiters.js";
import { postChatTurn, postSessionMessage } from "./gateway-requests.js";
import {
  followDirect,
  followSse,
  type FollowedEvent,
  type SessionFollower,
} from "./session-followers.js";

/** The ways a turn is sent and followed; see {@link measureGatewayTurns}. */
export const turnPaths = [
  "client-events",
  "client-send-and-wait",
  "gateway-rest",
  "gateway-chat",
] as const;
/** One of {@link turnPaths}. */
export type TurnPath = (typeof turnPaths)[number];

/** The timings of one path over the measured rounds. */
export interface TurnPathResult {
  /** Publish → first event of the turn (`client-events`, `gateway-rest`) or first byte (`gateway-chat`). */
  readonly first?: LatencySummary;
  /** Publish → the run's end (`run.completed`, or the chat stream's `finish` chunk). */
  readonly turn: LatencySummary;
  /** `POST …/messages` → its 202 (`gateway-rest` only). */
  readonly post?: LatencySummary;
  /** What came first, e.g. `message.accepted` or the chat's `start` chunk, with counts. */
  readonly firstKinds: Readonly<Record<string, number>>;
}

/** What {@link measureGatewayTurns} measured: the paths that worked, and why the others did not. */
export interface GatewayTurnsResult {
  readonly paths: Partial<Record<TurnPath, TurnPathResult>>;
  /** `<path>: <error>` for each path that failed (it was dropped from the rounds then). */
  readonly errors: readonly string[];
}

/** Options of {@link measureGatewayTurns}. */
export interface GatewayTurnsOptions {
  readonly client: TroupeClient;
  readonly gatewayUrl: string;
  readonly text: string;
  /** Sessions per path, used round robin. */
  readonly sessions: number;
  readonly warmupRounds: number;
  readonly rounds: number;
  /** Longest wait for one turn, in ms. */
  readonly turnTimeoutMs: number;
  readonly progress: (message: string) => void;
}

interface Sample {
  readonly firstMs?: number;
  readonly firstKind?: string;
  readonly turnMs: number;
  readonly postMs?: number;
}

let nextId = 0;
const messageId = (path: string) => `bench-${path}-${process.pid}-${++nextId}`;
const isRunEnd = (event: FollowedEvent) =>
  event.type === "run.completed" || event.type === "run.failed" || event.type === "run.cancelled";

/**
 * Gateway overhead on a turn (issue #16): sequential turns of the zero-latency
 * bench agent sent four ways, one round = one turn of each path in an order
 * rotated per round (so drift of the machine hits all alike), each path on its
 * own sessions:
 *
 * - `client-events`: `client.send` with a client message id, timed on a
 *   `client.events` iteration of the session opened beforehand: to its
 *   `message.accepted` naming that id, and to its `run.completed`;
 * - `client-send-and-wait`: `client.sendAndWait` (its own events consumer per call);
 * - `gateway-rest`: `POST /v1/sessions/:id/messages`, timed on a
 *   `GET /v1/sessions/:id/events` SSE stream opened beforehand, same events;
 * - `gateway-chat`: `POST /api/chat` to the first byte of the UI message stream
 *   and to its `finish` chunk.
 *
 * Every session first gets one direct turn; the followers then start after
 * its events. A path whose follower cannot be opened or whose turn fails is
 * dropped from the remaining rounds and named in `errors` (so a gateway
 * without one of the route families still measures the others).
 *
 * @param options - see {@link GatewayTurnsOptions}.
 * @returns per path that worked, the summaries of the measured rounds.
 * @throws Error when a direct turn preparing the sessions fails.
 */
export async function measureGatewayTurns(
  options: GatewayTurnsOptions,
): Promise<GatewayTurnsResult> {
  const { client, gatewayUrl, text, turnTimeoutMs } = options;
  const sessionsOf = (path: TurnPath) =>
    Array.from({ length: options.sessions }, (_, index) => `gw-${path}-${index}`);
  const direct = new Map<string, SessionFollower>();
  const sse = new Map<string, SessionFollower>();
  const failed = new Map<TurnPath, string>();
  const fail = (path: TurnPath, error: unknown) => {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    failed.set(path, message ?? "");
    options.progress(`  ${path} failed, dropped: ${message}`);
  };
  try {
    for (const path of turnPaths) {
      for (const sessionId of sessionsOf(path)) {
        await client.sendAndWait(sessionId, text, { timeoutMs: turnTimeoutMs });
      }
    }
    const fromSequence = (await client.lastSequence()) + 1;
    for (const sessionId of sessionsOf("client-events")) {
      direct.set(sessionId, followDirect(client, sessionId, fromSequence));
    }
    try {
      for (const sessionId of sessionsOf("gateway-rest")) {
        sse.set(
          sessionId,
          await followSse(gatewayUrl, sessionId, { lastEventId: String(fromSequence - 1) }),
        );
      }
    } catch (error) {
      fail("gateway-rest", error);
    }

    const followedTurn = async (
      follower: SessionFollower,
      publish: (clientMessageId: string) => Promise<number | undefined>,
      path: string,
    ): Promise<Sample> => {
      const clientMessageId = messageId(path);
      const accepted = follower.waiters.expect(
        (event) =>
          event.type === "message.accepted" && event.payload.clientMessageId === clientMessageId,
        turnTimeoutMs,
        `${path} message.accepted`,
      );
      const ended = follower.waiters.expect(isRunEnd, turnTimeoutMs, `${path} run end`);
      // Handled here too: the publish may throw before they are awaited.
      accepted.catch(() => undefined);
      ended.catch(() => undefined);
      const startedAtMs = epochNowMs();
      const answeredAtMs = await publish(clientMessageId);
      const first: Arrival<FollowedEvent> = await accepted;
      const end = await ended;
      if (end.item.type !== "run.completed") throw new Error(`${path}: ${end.item.type}`);
      return {
        firstMs: first.arrivedAtMs - startedAtMs,
        firstKind: first.item.type,
        turnMs: end.arrivedAtMs - startedAtMs,
        ...(answeredAtMs === undefined ? {} : { postMs: answeredAtMs - startedAtMs }),
      };
    };
    const runTurn = async (path: TurnPath, sessionId: string): Promise<Sample> => {
      switch (path) {
        case "client-events":
          return followedTurn(
            direct.get(sessionId)!,
            async (clientMessageId) => {
              await client.send(sessionId, { text, clientMessageId });
              return undefined;
            },
            path,
          );
        case "gateway-rest":
          return followedTurn(
            sse.get(sessionId)!,
            (clientMessageId) => postSessionMessage(gatewayUrl, sessionId, clientMessageId, text),
            path,
          );
        case "client-send-and-wait": {
          const startedAtMs = epochNowMs();
          const outcome = await client.sendAndWait(sessionId, text, { timeoutMs: turnTimeoutMs });
          if (outcome.status !== "completed") throw new Error(`${path}: ${outcome.status}`);
          return { turnMs: epochNowMs() - startedAtMs };
        }
        case "gateway-chat": {
          const startedAtMs = epochNowMs();
          const timing = await postChatTurn(
            gatewayUrl,
            sessionId,
            messageId(path),
            text,
            turnTimeoutMs,
          );
          return {
            firstMs: timing.firstByteAtMs - startedAtMs,
            firstKind: timing.firstChunkType,
            turnMs: timing.finishAtMs - startedAtMs,
          };
        }
      }
    };

    const samples = new Map<TurnPath, Sample[]>(turnPaths.map((path) => [path, []]));
    const total = options.warmupRounds + options.rounds;
    for (let round = 0; round < total; round += 1) {
      for (let offset = 0; offset < turnPaths.length; offset += 1) {
        const path = turnPaths[(round + offset) % turnPaths.length]!;
        if (failed.has(path)) continue;
        try {
          const sample = await runTurn(path, sessionsOf(path)[round % options.sessions]!);
          if (round >= options.warmupRounds) samples.get(path)!.push(sample);
        } catch (error) {
          fail(path, error);
        }
      }
      if ((round + 1) % 50 === 0) options.progress(`  round ${round + 1} of ${total}`);
    }
    const paths: Partial<Record<TurnPath, TurnPathResult>> = {};
    for (const path of turnPaths) {
      const measured = samples.get(path)!;
      if (!failed.has(path) && measured.length > 0) paths[path] = summarize(measured);
    }
    return { paths, errors: [...failed].map(([path, message]) => `${path}: ${message}`) };
  } finally {
    for (const follower of [...direct.values(), ...sse.values()]) follower.close();
  }
}

function summarize(samples: readonly Sample[]): TurnPathResult {
  const firsts = samples.flatMap((sample) =>
    sample.firstMs === undefined ? [] : [sample.firstMs],
  );
  const posts = samples.flatMap((sample) => (sample.postMs === undefined ? [] : [sample.postMs]));
  const firstKinds: Record<string, number> = {};
  for (const { firstKind } of samples) {
    if (firstKind !== undefined) firstKinds[firstKind] = (firstKinds[firstKind] ?? 0) + 1;
  }
  return {
    ...(firsts.length === 0 ? {} : { first: summarizeLatencies(firsts) }),
    turn: summarizeLatencies(samples.map((sample) => sample.turnMs)),
    ...(posts.length === 0 ? {} : { post: summarizeLatencies(posts) }),
    firstKinds,
  };
}
