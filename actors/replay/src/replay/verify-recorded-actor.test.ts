import { encodeMessage, hostActionImplementations, sendMessage } from "@troupe/protocol";
import { assign, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HistoryNotReproducibleError, defineActorKind, type InboxMessage } from "@troupe/step";
import { inboxTargetOf, outboxTargets } from "./outbox-targets.js";
import { recordActorHistory } from "./record-actor-history.js";
import { verifyRecordedActor } from "./verify-recorded-actor.js";

// A "dispatcher" that counts jobs and hands each to a worker actor: enough to
// show generations, their outbox, and the tree an export follows (issue #14).
const dispatcher = defineActorKind({
  kind: "dispatcher",
  machine: setup({
    types: {
      context: {} as { jobs: number },
      events: {} as { type: "job"; worker: string },
    },
    actions: { ...hostActionImplementations },
  }).createMachine({
    id: "dispatcher",
    context: { jobs: 0 },
    on: {
      job: {
        actions: [
          assign({ jobs: ({ context }) => context.jobs + 1 }),
          sendMessage({ to: "worker/w1", type: "work", payload: {} }),
        ],
      },
    },
  }),
  version: "3",
  messageSchemas: { job: z.object({ worker: z.string() }) },
});
const address = { kind: "dispatcher", id: "d1" };

function inbox(seq: number, body: Record<string, unknown>): InboxMessage {
  const timestampMs = 1_700_000_000_000 + seq;
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type: String(body["type"]),
    payload: Object.fromEntries(Object.entries(body).filter(([key]) => key !== "type")),
    meta: { timestampMs },
  });
  return {
    seq,
    subject: "_troupe.inbox.5.dispatcher.d1",
    data: bytes,
    contentType,
    timestampMs,
  };
}

const journal = [
  inbox(4, { type: "job", worker: "w1" }),
  inbox(9, { type: "job", worker: "w1" }),
  // Not a valid `job`: rejected, state kept, generation 3 carries a dead letter.
  inbox(12, { type: "job" }),
];

describe("recordActorHistory", () => {
  it("records every committed generation with its state, outbox and machine version, and the journal's bytes and types", () => {
    const { actor, steps } = recordActorHistory(dispatcher, address, journal);
    expect(actor.address).toBe("dispatcher/d1");
    expect(actor.machineVersion).toBe("3");
    expect(actor.journal.map((entry) => [entry.seq, entry.type, entry.contentType])).toEqual([
      [4, "job", "application/msgpack"],
      [9, "job", "application/msgpack"],
      [12, "job", "application/msgpack"],
    ]);
    expect(Buffer.from(actor.journal[1]!.data, "base64")).toEqual(Buffer.from(journal[1]!.data));
    expect(actor.generations.map((generation) => generation.generation)).toEqual([1, 2, 3]);
    expect(actor.generations.map((generation) => generation.inboxSeq)).toEqual([4, 9, 12]);
    expect(actor.generations[1]!.state).toMatchObject({ context: { jobs: 2 } });
    expect(actor.generations[2]!.state).toMatchObject({ context: { jobs: 2 } });
    expect(actor.generations[0]!.machineVersion).toBe("3");
    const sent = actor.generations[0]!.outbox.map((item) => item.subject);
    expect(sent).toContain("troupe.worker.w1.in");
    expect(actor.generations[0]!.outbox.every((item) => item.messageId.length > 0)).toBe(true);
    expect(actor.generations.every((generation) => generation.stored === undefined)).toBe(true);
    expect(steps).toHaveLength(3);
  });

  it("a message that is not msgpack or JSON keeps its bytes and has no type", () => {
    const garbage: InboxMessage = { ...journal[0]!, data: new Uint8Array([0xc1, 0xc1]) };
    const { actor } = recordActorHistory(dispatcher, address, [garbage]);
    expect(actor.journal[0]).toMatchObject({ data: "wcE=" });
    expect(actor.journal[0]!.type).toBeUndefined();
  });
});

describe("verifyRecordedActor", () => {
  const recorded = recordActorHistory(dispatcher, address, journal);
  const [first, second, third] = recorded.steps.map((step) => step.record);

  it("marks the latest stored generation and the kept ones stored: true", () => {
    const actor = verifyRecordedActor(recorded, { record: third!, outboxConfirmed: false }, [
      { ...second!, outbox: [] },
    ]);
    expect(actor.generations.map((generation) => generation.stored)).toEqual([
      undefined,
      true,
      true,
    ]);
  });

  it("a stored generation with other state is refused with the generation and path", () => {
    const changed = {
      ...second!,
      outbox: [],
      state: { ...(second!.state as object), context: { jobs: 7 } },
    };
    let error: unknown;
    try {
      verifyRecordedActor(recorded, { record: third!, outboxConfirmed: true }, [changed]);
    } catch (caught) {
      error = caught;
    }
    expect(HistoryNotReproducibleError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "history_not_reproducible",
      actor: "dispatcher/d1",
      generation: 2,
      path: "/state/context/jobs",
      expected: 7,
      actual: 2,
      reason: "diverged",
    });
    expect((error as Error).message).toContain("stored generation 2 at /state/context/jobs");
  });

  it("a journal that lost its first message (retention) is refused as incomplete", () => {
    const late = recordActorHistory(dispatcher, address, journal.slice(1));
    expect(() => verifyRecordedActor(late, { record: third!, outboxConfirmed: true }, [])).toThrow(
      expect.objectContaining({ reason: "journal_incomplete", generation: 3, actual: 2 }),
    );
    expect(first!.generation).toBe(1);
  });
});

describe("outboxTargets", () => {
  it("follows public and shard inbox subjects of known kinds, in order of first appearance", () => {
    const generations = [
      {
        outbox: [
          { subject: "troupe.session.s1.events.run.started", messageId: "a" },
          { subject: "troupe.run.s1.in", messageId: "b" },
          { subject: "_troupe.inbox.7.tool.t1", messageId: "c" },
        ],
      },
      {
        outbox: [
          { subject: "troupe.run.s1.in", messageId: "d" },
          { subject: "troupe.session.sub-1.in", messageId: "e" },
          { subject: "troupe.billing.b1.in", messageId: "f" },
          { subject: "_troupe.transcript.s1", messageId: "g" },
        ],
      },
    ];
    expect(
      outboxTargets(generations, new Set(["session", "run", "tool"])).map((target) => target.text),
    ).toEqual(["run/s1", "tool/t1", "session/sub-1"]);
  });

  it("reads no actor out of other subjects or invalid addresses", () => {
    expect(inboxTargetOf("troupe.session.a.b.in")).toBeUndefined();
    expect(inboxTargetOf("_troupe.inbox.x.session.s1")).toBeUndefined();
    expect(inboxTargetOf("_troupe.deadletter.session.s1")).toBeUndefined();
    expect(inboxTargetOf("_troupe.inbox.3.session.s1")).toEqual({ kind: "session", id: "s1" });
  });
});
