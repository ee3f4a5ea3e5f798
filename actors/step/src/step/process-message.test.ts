import {
  encodeMessage,
  decodeEvent,
  TroupeError,
  EFFECT_ACTION,
  hostActionImplementations,
  APPEND_ACTION,
  builtinEventSchemas,
} from "@troupe/protocol";
import { assign, cancel, createMachine, emit, enqueueActions, log, raise, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UnsupportedMachineActionError } from "../errors/unsupported-machine-action-error.js";
import { defineActorKind } from "../registry/actor-kind.js";
import { assertSupportedMachine } from "../registry/assert-supported-machine.js";
import { encodeActorRecord, type ActorRecord } from "./actor-record.js";
import {
  processMessage,
  type InboxMessage,
  type LiveState,
  type StepResult,
} from "./process-message.js";

const machine = setup({
  types: {
    context: {} as { count: number; alarms: number },
    events: {} as
      | { type: "add"; by: number }
      | { type: "arm"; delayMs: number }
      | { type: "disarm" }
      | { type: "alarm" }
      | { type: "double" }
      | { type: "effect.completed"; output: { count: number } },
  },
  actions: { ...hostActionImplementations },
}).createMachine({
  id: "counter",
  context: { count: 0, alarms: 0 },
  on: {
    add: {
      actions: [
        assign({ count: ({ context, event }) => context.count + event.by }),
        emit(({ context }) => ({ type: "counter.changed", count: context.count })),
      ],
    },
    arm: {
      actions: raise({ type: "alarm" }, { id: "alarm", delay: ({ event }) => event.delayMs }),
    },
    disarm: { actions: cancel("alarm") },
    alarm: { actions: assign({ alarms: ({ context }) => context.alarms + 1 }) },
    double: {
      actions: {
        type: EFFECT_ACTION,
        params: ({ context }) => ({ effect: "double", input: context.count }),
      },
    },
    "effect.completed": { actions: assign({ count: ({ event }) => event.output.count }) },
  },
});

const definition = defineActorKind({
  kind: "counter",
  machine,
  version: "1",
  messageSchemas: {
    add: z.object({ by: z.number().int() }),
    arm: z.object({ delayMs: z.number().int() }),
    double: z.object({}),
    disarm: z.object({}),
  },
});
const address = { kind: "counter", id: "c1" };
const options = { definition, address };

function inbox(
  seq: number,
  body: Record<string, unknown>,
  timestampMs = 1_000_000 + seq,
): InboxMessage {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type: String(body.type),
    payload: Object.fromEntries(Object.entries(body).filter(([key]) => key !== "type")),
    meta: { timestampMs },
  });
  return { seq, subject: "_troupe.inbox.3.counter.c1", data: bytes, contentType, timestampMs };
}

function committed(result: StepResult) {
  if (result.outcome !== "committed") throw new Error(`expected a commit, got ${result.outcome}`);
  return result;
}

function context(record: ActorRecord): { count: number; alarms: number } {
  return (record.state as { context: { count: number; alarms: number } }).context;
}

describe("processMessage", () => {
  it("creates an actor on its first message and emits an event with sequence 1", () => {
    const result = committed(processMessage(undefined, inbox(7, { type: "add", by: 5 }), options));
    expect(result.record.generation).toBe(1);
    expect(result.record.inboxSeq).toBe(7);
    expect(context(result.record).count).toBe(5);
    expect(result.record.eventSeq).toBe(1);
    expect(result.record.outbox).toHaveLength(1);
    const [item] = result.record.outbox;
    expect(item?.subject).toBe("troupe.counter.c1.events.counter.changed");
    expect(item?.messageId).toBe("counter/c1:ev:1");
    const event = decodeEvent(item!.body, {
      contentType: item!.contentType,
      schemas: { "counter.changed": z.object({ count: z.number() }) },
    });
    expect(event.payload).toEqual({ count: 5 });
    expect(event.meta).toMatchObject({ actor: "counter/c1", seq: 1, causationId: "m7" });
  });

  it("a first message that leaves the machine as it started creates nothing: its events are published transient (issue #11)", () => {
    const result = processMessage(undefined, inbox(9, { type: "add", by: 0 }), options);
    if (result.outcome !== "not_created") throw new Error(`got ${result.outcome}`);
    expect(result.outbox).toHaveLength(1);
    const [item] = result.outbox;
    expect(item?.subject).toBe("troupe.counter.c1.events.counter.changed");
    // Derived from the inbox sequence: a redelivery publishes the same id.
    expect(item?.messageId).toBe("counter/c1:ev:in.9.1");
    const event = decodeEvent(item!.body, {
      contentType: item!.contentType,
      schemas: { "counter.changed": z.object({ count: z.number() }) },
    });
    expect(event.meta).toMatchObject({ actor: "counter/c1", seq: 0, transient: true });
    expect(event.meta.causationId).toBe("m9");
    // The same message to an actor that exists is an ordinary commit.
    const existing = committed(
      processMessage(undefined, inbox(1, { type: "add", by: 1 }), options),
    );
    const next = committed(
      processMessage(existing.record, inbox(9, { type: "add", by: 0 }), options),
    );
    expect(next.record.generation).toBe(2);
    expect(next.record.eventSeq).toBe(2);
    // A first message that asks for anything but events still creates the actor.
    expect(processMessage(undefined, inbox(3, { type: "arm", delayMs: 5 }), options).outcome).toBe(
      "committed",
    );
    expect(processMessage(undefined, inbox(4, { type: "double" }), options).outcome).toBe(
      "committed",
    );
  });

  it("skips a message the snapshot already reflects (a redelivery after a lost ack)", () => {
    const first = committed(processMessage(undefined, inbox(7, { type: "add", by: 5 }), options));
    expect(processMessage(first.record, inbox(7, { type: "add", by: 5 }), options)).toEqual({
      outcome: "skipped",
      reason: "already_reflected",
    });
    expect(processMessage(first.record, inbox(6, { type: "add", by: 1 }), options).outcome).toBe(
      "skipped",
    );
  });

  it("rejects an invalid payload without touching the machine state", () => {
    const first = committed(processMessage(undefined, inbox(1, { type: "add", by: 2 }), options));
    const result = committed(
      processMessage(first.record, inbox(2, { type: "add", by: "two" }), options),
    );
    expect(result.rejection?.code).toBe("decode_failed");
    expect(result.record.state).toEqual(first.record.state);
    expect(result.record.inboxSeq).toBe(2);
    expect(result.record.eventSeq).toBe(2);
    expect(result.record.outbox.map((item) => item.subject)).toEqual([
      "_troupe.deadletter.counter.c1",
      "troupe.counter.c1.events.message.rejected",
    ]);
    const deadLetter = JSON.parse(
      new TextDecoder().decode(result.record.outbox[0]!.body),
    ) as Record<string, unknown>;
    expect(deadLetter).toMatchObject({
      code: "decode_failed:schema_invalid",
      inboxSeq: 2,
      actor: "counter/c1",
    });
  });

  it("a message the kind refuses after decoding is rejected under its own envelope id and type", () => {
    const refusing = defineActorKind({
      ...definition,
      toEvent: () => {
        throw new TroupeError("unknown_agent", "no such agent");
      },
    });
    const result = processMessage(undefined, inbox(4, { type: "add", by: 1 }), {
      definition: refusing,
      address,
    });
    // Refused by an actor that does not exist: nothing is stored (issue #11).
    if (result.outcome !== "not_created") throw new Error(`got ${result.outcome}`);
    expect(result.rejection?.code).toBe("unknown_agent");
    expect(result.outbox[0]?.subject).toBe("_troupe.deadletter.counter.c1");
    const item = result.outbox[1]!;
    expect(item.subject).toBe("troupe.counter.c1.events.message.rejected");
    const event = decodeEvent(item.body, { contentType: item.contentType });
    // The client that sent envelope "m4" can match the rejection to its message.
    expect(event.payload).toMatchObject({ code: "unknown_agent", messageId: "m4", type: "add" });
  });

  it("undecodable bytes are rejected under the inbox-derived id", () => {
    const garbage: InboxMessage = {
      seq: 9,
      subject: "s",
      data: new Uint8Array([0xc1, 0xff]),
      contentType: undefined,
      timestampMs: 5,
    };
    const result = processMessage(undefined, garbage, options);
    if (result.outcome !== "not_created") throw new Error(`got ${result.outcome}`);
    const item = result.outbox[1]!;
    expect(item.messageId).toBe("counter/c1:ev:in.9.1");
    const event = decodeEvent(item.body, { contentType: item.contentType });
    expect(event.payload).toMatchObject({ code: "decode_failed", messageId: "counter/c1:in:9" });
    expect(event.meta).toMatchObject({ seq: 0, transient: true });
    expect((event.payload as { type?: string }).type).toBeUndefined();
  });

  it("rejects an unknown message type and undecodable bytes", () => {
    const first = committed(processMessage(undefined, inbox(1, { type: "add", by: 1 }), options));
    const unknown = committed(processMessage(first.record, inbox(2, { type: "launch" }), options));
    expect(unknown.rejection?.message).toMatch(/launch/);
    expect(unknown.record.state).toEqual(first.record.state);
    const garbage: InboxMessage = {
      seq: 3,
      subject: "s",
      data: new Uint8Array([0xc1, 0xff]),
      contentType: undefined,
      timestampMs: 5,
    };
    const undecodable = committed(processMessage(unknown.record, garbage, options));
    expect(undecodable.rejection?.code).toBe("decode_failed");
    expect(undecodable.record.eventSeq).toBe(3);
  });

  it("arms a durable timer at the message time plus the delay and fires it exactly once", () => {
    const armed = committed(
      processMessage(undefined, inbox(1, { type: "arm", delayMs: 2000 }, 10_000), options),
    );
    expect(armed.record.timers).toEqual([
      { timerId: "alarm", deadlineMs: 12_000, event: { type: "alarm" } },
    ]);
    const fired = committed(
      processMessage(
        armed.record,
        inbox(2, { type: "timer.fired", timerId: "alarm", deadlineMs: 12_000 }),
        options,
      ),
    );
    expect(context(fired.record).alarms).toBe(1);
    expect(fired.record.timers).toEqual([]);
    expect(
      processMessage(
        fired.record,
        inbox(3, { type: "timer.fired", timerId: "alarm", deadlineMs: 12_000 }),
        options,
      ),
    ).toEqual({ outcome: "skipped", reason: "stale_timer" });
  });

  it("re-arming a timer with the same id replaces it, and a firing of the old deadline is stale", () => {
    const first = committed(
      processMessage(undefined, inbox(1, { type: "arm", delayMs: 100 }, 1000), options),
    );
    const second = committed(
      processMessage(first.record, inbox(2, { type: "arm", delayMs: 100 }, 5000), options),
    );
    expect(second.record.timers.map((timer) => timer.deadlineMs)).toEqual([5100]);
    const stale = processMessage(
      second.record,
      inbox(3, { type: "timer.fired", timerId: "alarm", deadlineMs: 1100 }),
      options,
    );
    expect(stale).toEqual({ outcome: "skipped", reason: "stale_timer" });
  });

  it("cancels a timer", () => {
    const armed = committed(
      processMessage(undefined, inbox(1, { type: "arm", delayMs: 100 }), options),
    );
    const disarmed = committed(processMessage(armed.record, inbox(2, { type: "disarm" }), options));
    // The store removes from the timer set what the previous generation had and this one lacks.
    expect(armed.record.timers.map((timer) => timer.timerId)).toEqual(["alarm"]);
    expect(disarmed.record.timers).toEqual([]);
  });

  it("records an effect request and applies its result once", () => {
    const added = committed(processMessage(undefined, inbox(1, { type: "add", by: 3 }), options));
    const requested = committed(
      processMessage(added.record, inbox(2, { type: "double" }), options),
    );
    expect(requested.effectsStarted).toEqual([{ effectId: "2.0", effect: "double", input: 3 }]);
    expect(requested.record.effects).toEqual(requested.effectsStarted);
    const completed = committed(
      processMessage(
        requested.record,
        inbox(3, { type: "effect.completed", effectId: "2.0", output: { count: 6 } }),
        options,
      ),
    );
    expect(context(completed.record).count).toBe(6);
    expect(completed.record.effects).toEqual([]);
    expect(
      processMessage(
        completed.record,
        inbox(4, { type: "effect.completed", effectId: "2.0", output: { count: 99 } }),
        options,
      ),
    ).toEqual({ outcome: "skipped", reason: "stale_effect" });
  });

  it("refuses a snapshot of another machine version unless a migrate hook exists", () => {
    const first = committed(processMessage(undefined, inbox(1, { type: "add", by: 1 }), options));
    const old: ActorRecord = { ...first.record, machineVersion: "0" };
    const refused = processMessage(old, inbox(2, { type: "add", by: 1 }), options);
    expect(refused.outcome).toBe("refused");
    expect(refused.outcome === "refused" && refused.error.code).toBe("unknown_machine_version");
    const migrating = {
      ...options,
      definition: { ...definition, migrate: (state: unknown) => state },
    };
    const migrated = committed(processMessage(old, inbox(2, { type: "add", by: 1 }), migrating));
    expect(context(migrated.record).count).toBe(2);
    expect(migrated.record.machineVersion).toBe("1");
  });

  it("is deterministic: the same inputs give byte-identical records, with or without the live snapshot", () => {
    const run = (useLive: boolean) => {
      let record: ActorRecord | undefined;
      let live: LiveState | undefined;
      for (const [seq, body] of [
        [1, { type: "add", by: 1 }],
        [2, { type: "arm", delayMs: 50 }],
        [3, { type: "double" }],
        [4, { type: "add", by: "bad" }],
      ] as const) {
        const result = committed(
          processMessage(record, inbox(seq, body), {
            ...options,
            live: useLive ? live : undefined,
          }),
        );
        record = result.record;
        live = result.live;
      }
      return Buffer.from(encodeActorRecord(record!));
    };
    expect(run(false).equals(run(false))).toBe(true);
    expect(run(true).equals(run(false))).toBe(true);
  });

  it("an effect result the machine cannot take is dead-lettered, given to the machine as effect.failed, and still consumes the pending effect", () => {
    const added = committed(processMessage(undefined, inbox(1, { type: "add", by: 3 }), options));
    const requested = committed(
      processMessage(added.record, inbox(2, { type: "double" }), options),
    );
    // `output: null` makes the machine's assign throw (null.count).
    const broken = committed(
      processMessage(
        requested.record,
        inbox(3, { type: "effect.completed", effectId: "2.0", output: null }),
        options,
      ),
    );
    expect(broken.rejection).toBeUndefined();
    expect(broken.effectFailedBy?.code).toBe("internal");
    // This machine has no effect.failed transition: its state stays as it was.
    expect(broken.record.state).toEqual(requested.record.state);
    expect(broken.record.effects).toEqual([]);
    expect(broken.record.outbox.map((item) => item.subject)).toEqual([
      "_troupe.deadletter.counter.c1",
      "troupe.counter.c1.events.message.rejected",
    ]);
    const rejected = decodeEvent(broken.record.outbox[1]!.body, {
      contentType: broken.record.outbox[1]!.contentType,
    });
    expect(rejected.payload).toMatchObject({ code: "internal", type: "effect.completed" });
    expect(rejected.meta.seq).toBe(broken.record.eventSeq);
  });
});

describe("processMessage never drops an action silently", () => {
  const dynamic = setup({
    types: {
      context: {} as { count: number; child?: unknown },
      events: {} as { type: "add"; by: number } | { type: "enqueue"; what: string },
    },
    actors: { child: createMachine({}) },
    actions: { ...hostActionImplementations, notify: () => undefined },
  }).createMachine({
    id: "dynamic",
    context: { count: 0 },
    on: {
      add: { actions: assign({ count: ({ context, event }) => context.count + event.by }) },
      enqueue: {
        // Registration cannot see inside enqueueActions: the step checks what it enqueued.
        actions: enqueueActions(({ enqueue, event }) => {
          enqueue.assign({ count: 100 });
          if (event.what === "spawnChild") enqueue.spawnChild("child", { id: "kid" });
          if (event.what === "sendTo") enqueue.sendTo(({ self }) => self, { type: "add", by: 1 });
          if (event.what === "custom") enqueue("notify");
          if (event.what === "log") enqueue(log("logged"));
          if (event.what === "spawn-in-assign")
            enqueue.assign(({ spawn }) => ({ child: spawn("child", { id: "hidden" }) }));
        }),
      },
    },
  });
  const dynamicKind = defineActorKind({
    kind: "dynamic",
    machine: dynamic,
    version: "1",
    messageSchemas: { add: z.object({ by: z.number() }), enqueue: z.object({ what: z.string() }) },
  });
  const dynamicOptions = { definition: dynamicKind, address: { kind: "dynamic", id: "d1" } };

  it("passes registration: what enqueueActions enqueues is only known at run time", () => {
    expect(() => assertSupportedMachine(dynamicKind)).not.toThrow();
  });

  it.each([
    ["spawnChild", /action "xstate\.spawnChild"/],
    ["sendTo", /action "xstate\.sendTo"/],
    ["custom", /action "notify"/],
    ["spawn-in-assign", /a child actor "hidden"/],
  ])(
    "an enqueued %s rejects the message: dead letter with code unsupported_machine_action, state untouched",
    (what, action) => {
      const first = committed(
        processMessage(undefined, inbox(1, { type: "add", by: 2 }), dynamicOptions),
      );
      const result = committed(
        processMessage(first.record, inbox(2, { type: "enqueue", what }), dynamicOptions),
      );
      expect(UnsupportedMachineActionError.isInstance(result.rejection)).toBe(true);
      expect(result.rejection?.message).toMatch(action);
      expect(result.rejection?.message).toMatch(/^actor kind "dynamic": a transition uses /);
      expect(result.record.state).toEqual(first.record.state);
      expect(result.record.inboxSeq).toBe(2);
      expect(result.record.effects).toEqual([]);
      expect(result.record.outbox.map((item) => item.subject)).toEqual([
        "_troupe.deadletter.dynamic.d1",
        "troupe.dynamic.d1.events.message.rejected",
      ]);
      const deadLetter = JSON.parse(
        new TextDecoder().decode(result.record.outbox[0]!.body),
      ) as Record<string, unknown>;
      expect(deadLetter).toMatchObject({ code: "unsupported_machine_action", inboxSeq: 2 });
      const event = decodeEvent(result.record.outbox[1]!.body, {
        contentType: result.record.outbox[1]!.contentType,
      });
      expect(event.payload).toMatchObject({
        code: "unsupported_machine_action",
        messageId: "m2",
        type: "enqueue",
      });
    },
  );

  it("an enqueued log passes as a no-op", () => {
    const result = committed(
      processMessage(undefined, inbox(1, { type: "enqueue", what: "log" }), dynamicOptions),
    );
    expect(result.rejection).toBeUndefined();
    expect(result.record.outbox).toEqual([]);
    expect((result.record.state as { context: { count: number } }).context.count).toBe(100);
  });
});

describe("processMessage contains oversized outboxes and failing steps (issue #11)", () => {
  const limit = 4096;
  const echo = setup({
    types: {
      context: {} as { texts: number; lastError?: string },
      events: {} as
        | { type: "say"; text: string }
        | { type: "note"; text: string }
        | { type: "fetch" }
        | { type: "effect.completed"; output: { text: string } }
        | { type: "effect.failed"; error: { code: string; message: string } },
    },
    actions: { ...hostActionImplementations },
  }).createMachine({
    id: "echo",
    context: { texts: 0 },
    on: {
      say: {
        actions: [
          assign({ texts: ({ context }) => context.texts + 1 }),
          emit(({ event }) => ({ type: "echo.said", text: event.text.repeat(2) })),
        ],
      },
      note: {
        actions: {
          type: APPEND_ACTION,
          params: ({ event }) => ({
            log: "transcript" as const,
            key: "s1",
            index: 0,
            entry: { role: "user" as const, text: event.text.repeat(2), messageId: "m1" },
          }),
        },
      },
      fetch: { actions: { type: EFFECT_ACTION, params: { effect: "fetch", input: {} } } },
      "effect.completed": {
        actions: emit(({ event }) => ({ type: "echo.said", text: event.output.text.repeat(2) })),
      },
      "effect.failed": {
        actions: [
          assign({ lastError: ({ event }) => event.error.code }),
          emit(({ event }) => ({ type: "echo.failed", code: event.error.code })),
        ],
      },
    },
  });
  const echoKind = defineActorKind({
    kind: "counter",
    machine: echo,
    version: "1",
    messageSchemas: {
      say: z.object({ text: z.string() }),
      note: z.object({ text: z.string() }),
      fetch: z.object({}),
    },
  });
  const echoOptions = { definition: echoKind, address, maxPayloadBytes: limit };

  it("an event over maxPayloadBytes rejects the message with payload_too_large, state untouched", () => {
    const first = committed(
      processMessage(undefined, inbox(1, { type: "say", text: "hi" }), echoOptions),
    );
    const big = committed(
      processMessage(
        first.record,
        inbox(2, { type: "say", text: "z".repeat(limit * 0.6) }),
        echoOptions,
      ),
    );
    expect(big.rejection?.code).toBe("payload_too_large");
    expect(big.rejection?.message).toMatch(/echo\.said is \d+ bytes; the limit is 4096 bytes/);
    expect(big.record.state).toEqual(first.record.state);
    expect(big.record.outbox.map((item) => item.subject)).toEqual([
      "_troupe.deadletter.counter.c1",
      "troupe.counter.c1.events.message.rejected",
    ]);
    expect(big.record.outbox.every((item) => item.body.byteLength < limit * 2)).toBe(true);
  });

  it("a transcript entry over maxPayloadBytes rejects the message too", () => {
    const first = committed(
      processMessage(undefined, inbox(1, { type: "say", text: "hi" }), echoOptions),
    );
    const big = committed(
      processMessage(
        first.record,
        inbox(2, { type: "note", text: "n".repeat(limit * 0.6) }),
        echoOptions,
      ),
    );
    expect(big.record.state).toEqual(first.record.state);
    expect(big.rejection?.code).toBe("payload_too_large");
    expect(big.rejection?.message).toContain("troupe.transcript.s1");
    const small = committed(
      processMessage(undefined, inbox(1, { type: "note", text: "fits" }), echoOptions),
    );
    expect(small.rejection).toBeUndefined();
    expect(small.record.outbox).toHaveLength(1);
  });

  it("an effect result whose outbox would be too large reaches the machine as effect.failed payload_too_large", () => {
    const requested = committed(
      processMessage(undefined, inbox(1, { type: "fetch" }), echoOptions),
    );
    const [pending] = requested.record.effects;
    const result = committed(
      processMessage(
        requested.record,
        inbox(2, {
          type: "effect.completed",
          effectId: pending!.effectId,
          output: { text: "w".repeat(limit * 0.6) },
        }),
        { ...echoOptions, maxPayloadBytes: limit },
      ),
    );
    expect(result.rejection).toBeUndefined();
    expect(result.effectFailedBy?.code).toBe("payload_too_large");
    expect(result.record.effects).toEqual([]);
    expect((result.record.state as { context: { lastError?: string } }).context.lastError).toBe(
      "payload_too_large",
    );
    const events = result.record.outbox
      .filter((item) => item.subject.startsWith("troupe."))
      .map((item) =>
        decodeEvent(item.body, {
          contentType: item.contentType,
          schemas: { ...builtinEventSchemas, "echo.failed": z.object({ code: z.string() }) },
        }),
      );
    expect(events.map((event) => [event.type, event.meta.seq])).toEqual([
      ["echo.failed", 1],
      ["message.rejected", 2],
    ]);
    expect(result.record.eventSeq).toBe(2);
  });

  it("never throws: a kind whose toEvent hook throws a non-error gets the message dead-lettered", () => {
    const throwing = defineActorKind({
      kind: "counter",
      machine: echo,
      version: "1",
      messageSchemas: { say: z.object({ text: z.string() }) },
      toEvent: () => {
        // The point of the test: a thrown value that is not an Error.
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw Object.assign(Object.create(null) as object, { weird: true });
      },
    });
    const result = processMessage(undefined, inbox(1, { type: "say", text: "hi" }), {
      definition: throwing,
      address,
    });
    // The actor has no record and the message is rejected: nothing is stored
    // (not_created), but the dead letter and the rejection are still published.
    if (result.outcome !== "not_created")
      throw new Error(`expected not_created, got ${result.outcome}`);
    expect(result.rejection?.code).toBe("internal");
    expect(result.outbox.map((item) => item.subject)).toEqual([
      "_troupe.deadletter.counter.c1",
      "troupe.counter.c1.events.message.rejected",
    ]);
  });
});
