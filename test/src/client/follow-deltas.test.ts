import {
  type Consumer,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from "@nats-io/jetstream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import type { SessionEvent } from "@troupe/client";
import { followSessionEvents } from "@troupe/client/internal";
import {
  deltaSubject,
  encodeEvent,
  eventSubject,
  streamNames,
  type EventType,
} from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStreamsServer, type StreamsServer } from "../support/streams-server.js";

/** Faults a {@link faultyJetStream} injects into the follower's deltas consumer, until the gate opens. */
interface DeltaFaults {
  /** `consumers.get` on the deltas stream rejects (as a JetStream API timeout would). */
  readonly failCreate?: boolean;
  /** The deltas consumer's `info()` rejects. */
  readonly failInfo?: boolean;
  /** The deltas consumer's messages reach the follower only after the gate (a lagging consumer). */
  readonly holdMessages?: boolean;
  /** The events consumer's messages reach the follower only after its first delta did. */
  readonly holdEventsUntilDelta?: boolean;
}

/** A one-shot latch. */
function latch(): { readonly opened: Promise<void>; open(): void; readonly isOpen: () => boolean } {
  let open!: () => void;
  let isOpen = false;
  const opened = new Promise<void>((resolve) => {
    open = () => {
      isOpen = true;
      resolve();
    };
  });
  return { opened, open: () => open(), isOpen: () => isOpen };
}

/** Hands out a consumer's messages only after `gate` (when `hold`), and reports each one handed out. */
function wrapMessages(
  messages: ConsumerMessages,
  hold: Promise<void> | undefined,
  onMessage: (message: JsMsg) => void,
): ConsumerMessages {
  return new Proxy(messages, {
    get(target, property) {
      if (property === Symbol.asyncIterator) {
        return async function* () {
          for await (const message of target) {
            if (hold !== undefined) await hold;
            yield message;
            onMessage(message);
          }
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/**
 * The real JetStream client of a real server, with faults on the follower's
 * deltas consumer until `gate` opens; `gate` opens once the events consumer
 * handed the follower a `run.completed` (the moment after which a late delta
 * would be dropped) and each fault asked for struck at least once.
 */
function faultyJetStream(
  js: JetStreamClient,
  deltaStream: string,
  faults: DeltaFaults,
): {
  readonly js: JetStreamClient;
  readonly gate: ReturnType<typeof latch>;
  readonly deltasLocated: ReturnType<typeof latch>;
  readonly deltaHandedOver: ReturnType<typeof latch>;
  readonly failures: { create: number; info: number };
} {
  const gate = latch();
  const deltasLocated = latch();
  const deltaHandedOver = latch();
  const failures = { create: 0, info: 0 };
  let completedHandedOver = false;
  // Opens once run.completed was handed over and every fault asked for struck at least once.
  const maybeOpen = () => {
    const struck =
      (faults.failCreate !== true || failures.create > 0) &&
      (faults.failInfo !== true || failures.info > 0);
    if (completedHandedOver && struck) gate.open();
  };
  const wrapConsumer = (consumer: Consumer, deltas: boolean): Consumer =>
    new Proxy(consumer, {
      get(target, property) {
        if (property === "info" && deltas) {
          return async (...args: unknown[]) => {
            if (faults.failInfo === true && !gate.isOpen()) {
              failures.info++;
              maybeOpen();
              throw new Error("TimeoutError: injected consumer info timeout");
            }
            const info = await (target.info as (...a: unknown[]) => ReturnType<Consumer["info"]>)(
              ...args,
            );
            deltasLocated.open();
            return info;
          };
        }
        if (property === "consume") {
          return async (...args: unknown[]) => {
            const messages = await (
              target.consume as (...a: unknown[]) => Promise<ConsumerMessages>
            )(...args);
            const hold =
              deltas && faults.holdMessages === true
                ? gate.opened
                : !deltas && faults.holdEventsUntilDelta === true
                  ? deltaHandedOver.opened
                  : undefined;
            return wrapMessages(messages, hold, (message) => {
              if (deltas) deltaHandedOver.open();
              if (!deltas && message.subject.endsWith(".run.completed")) {
                completedHandedOver = true;
                maybeOpen();
              }
            });
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function"
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    });
  const consumers = new Proxy(js.consumers, {
    get(target, property) {
      if (property === "get") {
        return async (stream: string, options: unknown) => {
          const deltas = stream === deltaStream;
          if (deltas && faults.failCreate === true && !gate.isOpen()) {
            failures.create++;
            maybeOpen();
            throw new Error("TimeoutError: injected consumer create timeout");
          }
          const consumer = await (target.get as (s: string, o: unknown) => Promise<Consumer>)(
            stream,
            options,
          );
          return wrapConsumer(consumer, deltas);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  const wrapped = new Proxy(js, {
    get(target, property) {
      if (property === "consumers") return consumers;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { js: wrapped, gate, deltasLocated, deltaHandedOver, failures };
}

const ANSWER_WORDS = ["Deltas ", "arrive ", "before ", "the ", "end."];
const ANSWER = ANSWER_WORDS.join("");

// issue #30: under load, the follower's deltas consumer failed to start or to
// answer `info()`, or delivered after the run's end; the follower then yielded
// run.completed first and dropped the run's deltas (the A2A stream's chunks
// and useChat's text came out short). The follower must hold a run's end
// until its deltas side has said where it is.
describe("followSessionEvents keeps a run's deltas before its end (issue #30)", () => {
  let deployment: StreamsServer;
  let nats: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;
  const prefix = "fdel";
  const streams = streamNames(prefix);

  beforeAll(async () => {
    deployment = await startStreamsServer(prefix);
    ({ nats, js, jsm } = deployment);
  });
  afterAll(async () => {
    await deployment?.stop();
  });

  const publishDurable = async (
    sessionId: string,
    seq: number,
    type: EventType,
    payload: object,
  ) => {
    const actor = `run/${sessionId}`;
    const { bytes, contentType } = encodeEvent({
      v: 1,
      id: `${actor}:ev:${seq}`,
      type,
      payload,
      meta: { actor, seq, timestampMs: Date.now() },
    });
    const eventHeaders = headers();
    eventHeaders.set("Content-Type", contentType);
    await js.publish(eventSubject({ kind: "session", id: sessionId }, type), bytes, {
      headers: eventHeaders,
      msgID: `${actor}:ev:${seq}`,
    });
  };

  /** What a host publishes for one streamed run: run.started, its deltas, run.completed. */
  const publishRun = async (sessionId: string) => {
    await publishDurable(sessionId, 1, "run.started", { runId: "r1" });
    for (const [index, text] of ANSWER_WORDS.entries()) {
      const actor = `run/${sessionId}`;
      const { bytes, contentType } = encodeEvent({
        v: 1,
        id: `${actor}:delta:m1:1:${index}`,
        type: "run.delta",
        payload: { runId: "r1", modelCallId: "m1", attempt: 1, kind: "text", text, index },
        meta: { actor, seq: 0, transient: true, timestampMs: Date.now() },
      });
      const deltaHeaders = headers();
      deltaHeaders.set("Content-Type", contentType);
      await js.publish(deltaSubject(sessionId), bytes, { headers: deltaHeaders });
    }
    await publishDurable(sessionId, 2, "run.completed", {
      runId: "r1",
      text: ANSWER,
      usage: { inputTokens: 1, outputTokens: 5 },
    });
  };

  /** Follows `sessionId` through `faulty` until run.completed; what it yielded. */
  const follow = (
    faulty: ReturnType<typeof faultyJetStream>,
    sessionId: string,
    options: { fromSequence?: number; onCaughtUp?: () => void } = {},
  ): Promise<SessionEvent[]> => {
    const signal = AbortSignal.timeout(60_000);
    return (async () => {
      const seen: SessionEvent[] = [];
      for await (const item of followSessionEvents({
        js: faulty.js,
        jsm,
        stream: streams.events,
        deltaStream: streams.deltas,
        prefix,
        sessionId,
        fromSequence: options.fromSequence,
        signal,
        lastSequence: async () => (await jsm.streams.info(streams.events)).state.last_seq,
        isClosed: () => nats.isClosed(),
        onCaughtUp: options.onCaughtUp,
      })) {
        seen.push(item);
        if (item.event.type === "run.completed") break;
      }
      return seen;
    })();
  };

  const expectWholeAnswerBeforeEnd = (seen: readonly SessionEvent[]) => {
    const types = seen.map((item) => item.event.type);
    expect(types[0]).toBe("run.started");
    expect(types.at(-1)).toBe("run.completed");
    const text = seen
      .filter((item) => item.event.type === "run.delta")
      .map((item) => (item.event.payload as { text: string }).text)
      .join("");
    expect(text).toBe(ANSWER);
  };

  it("a deltas consumer that cannot be created until the run ended: its stored deltas still come before run.completed", async () => {
    await publishRun("fd-create");
    const faulty = faultyJetStream(js, streams.deltas, { failCreate: true });
    const seen = await follow(faulty, "fd-create", { fromSequence: 1 });
    expect(faulty.gate.isOpen()).toBe(true); // run.completed reached the follower while deltas could not be read
    expect(faulty.failures.create).toBeGreaterThan(0);
    expectWholeAnswerBeforeEnd(seen);
  });

  it("a deltas consumer whose info() fails and whose replay lags until the run ended: every delta still comes before run.completed", async () => {
    await publishRun("fd-info");
    const faulty = faultyJetStream(js, streams.deltas, { failInfo: true, holdMessages: true });
    const seen = await follow(faulty, "fd-info", { fromSequence: 1 });
    expect(faulty.gate.isOpen()).toBe(true);
    expect(faulty.failures.info).toBeGreaterThan(0);
    expectWholeAnswerBeforeEnd(seen);
  });

  /**
   * Follows `sessionId` through `faulty` from "only new events", waits until
   * both sides are caught up with nothing stored (from then on items go out
   * as they arrive), publishes a run and returns what was yielded.
   */
  const followLiveRun = async (faulty: ReturnType<typeof faultyJetStream>, sessionId: string) => {
    const eventsCaughtUp = latch();
    const seen = follow(faulty, sessionId, { onCaughtUp: () => eventsCaughtUp.open() });
    await Promise.all([eventsCaughtUp.opened, faulty.deltasLocated.opened]);
    await publishRun(sessionId);
    return seen;
  };

  it("live: a caught-up deltas consumer that delivers after run.completed arrived still gets its deltas out before it", async () => {
    const faulty = faultyJetStream(js, streams.deltas, { holdMessages: true });
    const result = await followLiveRun(faulty, "fd-live");
    expect(faulty.gate.isOpen()).toBe(true);
    expectWholeAnswerBeforeEnd(result);
  });

  it("live: a caught-up events consumer that delivers run.started after the run's first delta arrived still gets it out first", async () => {
    const faulty = faultyJetStream(js, streams.deltas, { holdEventsUntilDelta: true });
    const result = await followLiveRun(faulty, "fd-live-start");
    expect(faulty.deltaHandedOver.isOpen()).toBe(true); // a delta reached the follower before any event
    expectWholeAnswerBeforeEnd(result);
  });
});
