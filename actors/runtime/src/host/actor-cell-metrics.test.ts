import type { JsMsg } from "@nats-io/jetstream";
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type MetricData,
} from "@opentelemetry/sdk-metrics";
import { ATTRIBUTES, encodeMessage, hostActionImplementations, METRICS } from "@troupe/protocol";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assign, setup } from "xstate";
import { z } from "zod";
import { systemClock, defineActorKind } from "@troupe/step";
import { HostMetrics } from "../observability/host-metrics.js";
import { ActorCell, type ActorCellDependencies } from "./actor-cell.js";

class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const definition = defineActorKind({
  kind: "counter",
  machine: setup({
    types: { context: {} as { count: number }, events: {} as { type: "add"; by: number } },
    actions: { ...hostActionImplementations },
  }).createMachine({
    context: { count: 0 },
    on: { add: { actions: assign({ count: ({ context, event }) => context.count + event.by }) } },
  }),
  version: "1",
  messageSchemas: { add: z.object({ by: z.number().int() }) },
});

/** A delivered inbox message, as much of a JsMsg as the cell reads. */
function delivered(seq: number, type: string, payload: Record<string, unknown>): JsMsg {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type,
    payload,
    meta: { timestampMs: 1_000 },
  });
  return {
    seq,
    subject: "_troupe.inbox.0.counter.c1",
    data: bytes,
    headers: { get: (name: string) => (name === "Content-Type" ? contentType : "") },
    info: { timestampNanos: 1_000_000_000, pending: 0 },
    redelivered: false,
    ack: () => undefined,
  } as unknown as JsMsg;
}

const providers: MeterProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
});

describe("ActorCell's metrics (issue #18)", () => {
  it("counts each message once by outcome, a commit conflict as a conflict, and each activation", async () => {
    const reader = new CollectingReader({
      aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
    });
    const provider = new MeterProvider({ readers: [reader] });
    providers.push(provider);
    const metrics = new HostMetrics(
      { shardsOwned: () => 1, inboxLag: () => [], timersArmed: () => Promise.resolve(0) },
      provider.getMeter("troupe"),
    );
    const completed: number[] = [];
    let commits = 0;
    const dependencies: ActorCellDependencies = {
      snapshots: { load: () => Promise.resolve(undefined) },
      publisher: { publish: () => Promise.resolve() },
      effects: {
        cancel: () => undefined,
        deliverCancelled: () => Promise.resolve(),
        hasRunningEffect: () => false,
      },
      limit: (task) => task(),
      logger: pino({ level: "silent" }),
      maxPayloadBytes: 1024 * 1024,
      clock: systemClock,
      refusals: { refused: () => undefined, resolved: () => undefined },
      metrics,
      shard: {
        accepting: () => true,
        // The first write finds the generation moved (another writer): a conflict.
        commit: () => Promise.resolve((commits += 1) === 1 ? "conflict" : "committed"),
        complete: (message) => void completed.push(message.seq),
        rearmTimer: () => Promise.resolve(),
        startEffect: () => undefined,
        sleep: () => Promise.resolve(),
      },
    };
    const cell = new ActorCell({ kind: "counter", id: "c1" }, definition, dependencies);
    cell.enqueue(delivered(1, "add", { by: 1 }));
    cell.enqueue(delivered(2, "add", { by: 2 }));
    cell.enqueue(delivered(3, "add", { by: "three" })); // fails validation: dead letter
    cell.enqueue(delivered(4, "add", { by: 4 }));
    await vi.waitFor(() => expect(completed).toEqual([1, 2, 3, 4]), { timeout: 5_000 });
    await cell.settled();

    const { resourceMetrics } = await reader.collect();
    const byName = new Map<string, MetricData>();
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    const values = (name: string) =>
      Object.fromEntries(
        (byName.get(name)?.dataPoints ?? []).map((point) => [
          Object.values(point.attributes).join("/"),
          point.value,
        ]),
      );
    expect(values(METRICS.messagesProcessed.name)).toEqual({
      "counter/conflict": 1,
      "counter/committed": 3,
      "counter/rejected": 1,
    });
    expect(values(METRICS.commitConflicts.name)).toEqual({ counter: 1 });
    // Activated on the first message, and again after the conflict (the snapshot is reloaded).
    expect(values(METRICS.activations.name)).toEqual({ counter: 2 });
    const deadLetters = byName.get(METRICS.deadLetters.name)?.dataPoints ?? [];
    expect(deadLetters).toHaveLength(1);
    expect(deadLetters[0]?.attributes).toEqual({
      [ATTRIBUTES.actorKind]: "counter",
      [ATTRIBUTES.deadLetterCode]: "decode_failed",
    });
    expect(deadLetters[0]?.value).toBe(1);
    expect(
      (byName.get(METRICS.stepDuration.name)?.dataPoints[0]?.value as { count: number }).count,
    ).toBe(5);
  });
});
