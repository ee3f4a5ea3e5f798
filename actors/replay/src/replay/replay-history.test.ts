import {
  EFFECT_ACTION,
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  formatHistory,
  hostActionImplementations,
  parseHistory,
  type TroupeHistory,
} from "@troupe/protocol";
import { assign, emit, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineActorKind, type ActorKindDefinition, type InboxMessage } from "@troupe/step";
import { journalMessage } from "./journal-message.js";
import { recordActorHistory } from "./record-actor-history.js";
import { formatHistoryReplayReport, replayRecordedHistory } from "./replay-history.js";
import { StoredGenerations } from "./stored-generations.js";

// A counter that asks for a `double` effect; version 2 renames the state
// `counting` to `active` (an incompatible change: a version-1 snapshot says
// `counting`, which version 2 does not have).
function counterKind(
  options: { version?: string; stateName?: string; step?: number; migrate?: boolean } = {},
): ActorKindDefinition {
  const stateName = options.stateName ?? "counting";
  const step = options.step ?? 1;
  const machine = setup({
    types: {
      context: {} as { count: number },
      events: {} as
        | { type: "add"; by: number }
        | { type: "double" }
        | { type: "effect.completed"; output: number },
    },
    actions: { ...hostActionImplementations },
  }).createMachine({
    id: "counter",
    context: { count: 0 },
    initial: stateName,
    states: {
      [stateName]: {
        on: {
          add: {
            actions: [
              assign({ count: ({ context, event }) => context.count + event.by * step }),
              emit(({ context }) => ({ type: "counter.changed", count: context.count })),
            ],
          },
          double: {
            actions: {
              type: EFFECT_ACTION,
              params: ({ context }) => ({ effect: "double", input: { count: context.count } }),
            },
          },
          "effect.completed": { actions: assign({ count: ({ event }) => event.output }) },
        },
      },
    },
  });
  return defineActorKind({
    kind: "counter",
    machine,
    version: options.version ?? "1",
    messageSchemas: { add: z.object({ by: z.number().int() }), double: z.object({}) },
    ...(options.migrate === true
      ? {
          migrate: (persisted: unknown, fromVersion: string) => {
            if (fromVersion !== "1") throw new Error(`cannot read version ${fromVersion}`);
            const snapshot = persisted as { value: string };
            return {
              ...snapshot,
              value: snapshot.value === "counting" ? stateName : snapshot.value,
            };
          },
        }
      : {}),
  });
}

const address = { kind: "counter", id: "c1" };

function inbox(seq: number, type: string, payload: Record<string, unknown>): InboxMessage {
  return journalMessage({ seq, address, type, payload });
}

const journal = [
  inbox(1, "add", { by: 2 }),
  inbox(4, "double", {}),
  inbox(5, "effect.completed", { effectId: "e1", output: 4 }),
  inbox(9, "add", { by: 1 }),
];

function recorded(kind = counterKind()): TroupeHistory {
  const { actor } = recordActorHistory(kind, address, journal);
  return {
    format: HISTORY_FORMAT,
    formatVersion: HISTORY_FORMAT_VERSION,
    exportedAtMs: 1_735_689_700_000,
    root: "counter/c1",
    tree: false,
    actors: [actor],
  };
}

describe("recordActorHistory", () => {
  it("keeps every journaled message and every generation the journal produced", () => {
    const { actor } = recordActorHistory(counterKind(), address, journal);
    expect(actor.journal.map((entry) => [entry.seq, entry.type])).toEqual([
      [1, "add"],
      [4, "double"],
      [5, "effect.completed"],
      [9, "add"],
    ]);
    // The effect result whose effect id the machine never asked for is skipped:
    // the effect the machine asked for has its own id.
    expect(actor.generations.map((g) => [g.generation, g.inboxSeq])).toEqual([
      [1, 1],
      [2, 4],
      [3, 9],
    ]);
    expect(actor.generations[1]?.effects).toEqual([
      { effectId: expect.any(String) as string, effect: "double", input: { count: 2 } },
    ]);
  });
});

describe("replayRecordedHistory", () => {
  it("a history replays with the kind that recorded it, through JSON and NDJSON alike, with the effects of each step", () => {
    for (const format of ["json", "ndjson"] as const) {
      const history = parseHistory(formatHistory(recorded(), format));
      const report = replayRecordedHistory({ kinds: [counterKind()], history });
      expect(report.reproduces).toBe(true);
      expect(report.divergence).toBeUndefined();
      const [actor] = report.actors;
      expect(actor?.steps.map((step) => step.outcome)).toEqual([
        "committed",
        "committed",
        "skipped",
        "committed",
      ]);
      expect(actor?.steps[1]?.effectsRequested).toEqual([
        { effectId: expect.any(String) as string, effect: "double", input: { count: 2 } },
      ]);
    }
  });

  it("trace context stamped by a live host is not compared: the journal still reproduces (issue #18)", () => {
    const trace = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" };
    const traced = journal.map((message) => ({ ...message, trace }));
    const { actor, steps } = recordActorHistory(counterKind(), address, traced);
    // as the live host stored it: the pending effect and the outbox carry the trace
    expect(actor.generations[1]?.effects).toEqual([
      { effectId: expect.any(String) as string, effect: "double", input: { count: 2 }, trace },
    ]);
    expect(steps[0]?.record.outbox.every((item) => item.trace === trace)).toBe(true);
    const history: TroupeHistory = { ...recorded(), actors: [actor] };
    const report = replayRecordedHistory({ kinds: [counterKind()], history });
    expect(report.divergence).toBeUndefined();
    expect(report.reproduces).toBe(true);
    // and a replayed record compares equal to the stored generation that has trace context
    const untraced = recordActorHistory(counterKind(), address, journal).steps;
    const last = steps.at(-1)?.record;
    if (last === undefined) throw new Error("no generation");
    const generations = new StoredGenerations(
      { record: last, outboxConfirmed: false },
      steps.slice(0, -1).map((step) => step.record),
    );
    for (const step of untraced) expect(generations.check(step.record)).toBeUndefined();
    expect([...generations.compared]).toEqual([1, 2, 3]);
  });

  it("a changed machine of the same version diverges at the first generation it changes, with path, expected and got", () => {
    const report = replayRecordedHistory({
      kinds: [counterKind({ step: 10 })],
      history: recorded(),
    });
    expect(report.reproduces).toBe(false);
    expect(report.divergence).toMatchObject({
      actor: "counter/c1",
      generation: 1,
      inboxSeq: 1,
      messageType: "add",
      path: "/state/context/count",
      expected: 2,
      got: 20,
    });
    expect(report.actors[0]?.steps).toHaveLength(1);
  });

  it("an incompatible change (a renamed state) diverges at /state/value; a migration from version 1 makes it replay", () => {
    const renamed = counterKind({ stateName: "active" });
    const broken = replayRecordedHistory({ kinds: [renamed], history: recorded() });
    expect(broken.divergence).toMatchObject({
      generation: 1,
      path: "/state/value",
      expected: "counting",
      got: "active",
    });
    expect(formatHistoryReplayReport(broken)).toContain('expected: "counting"');

    const withoutMigration = counterKind({ stateName: "active", version: "2" });
    const refused = replayRecordedHistory({ kinds: [withoutMigration], history: recorded() });
    expect(refused.divergence).toMatchObject({ path: "/machineVersion", expected: "1", got: "2" });
    expect(refused.divergence?.reason).toContain("has no migrate hook");

    const migrated = counterKind({ stateName: "active", version: "2", migrate: true });
    const report = replayRecordedHistory({ kinds: [migrated], history: recorded() });
    expect(formatHistoryReplayReport(report)).toContain(
      "machine v1 → replayed as v2 through migrate",
    );
    expect(report.reproduces).toBe(true);
    expect(report.actors[0]).toMatchObject({ recordedVersions: ["1"], migrated: true });
  });

  it("a history whose journal misses a message, or an actor without a kind, does not replay", () => {
    const history = recorded();
    const [actor] = history.actors;
    const gap = { ...history, actors: [{ ...actor!, journal: actor!.journal.slice(1) }] };
    const report = replayRecordedHistory({ kinds: [counterKind()], history: gap });
    expect(report.reproduces).toBe(false);
    expect(report.divergence?.inboxSeq).toBe(4);

    const noKind = replayRecordedHistory({ kinds: [], history });
    expect(noKind.divergence?.reason).toContain('no kind "counter"');
  });
  it("a journal message whose bytes were damaged is reported with the rejection it caused", () => {
    const history = recorded();
    const [actor] = history.actors;
    const damaged = actor!.journal.map((entry, index) =>
      index === 0 ? { ...entry, data: Buffer.from("not an envelope").toString("base64") } : entry,
    );
    const report = replayRecordedHistory({
      kinds: [counterKind()],
      history: { ...history, actors: [{ ...actor!, journal: damaged }] },
    });
    expect(report.divergence).toMatchObject({ generation: 1, inboxSeq: 1, got: "not_created" });
    expect(report.divergence?.reason).toContain("the message was rejected: decode_failed");
  });
});
