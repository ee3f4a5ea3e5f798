import { describe, expect, it } from "vitest";
import {
  formatActorInspection,
  formatPinnedDefinition,
  formatStateValue,
} from "./format-actor-inspection.js";
import { pinnedDefinitionOf } from "./inspect-actor.js";
import type { ActorInspection } from "./inspect-actor.js";

const inspection: ActorInspection = {
  address: "session/s1",
  kind: "session",
  id: "s1",
  exists: true,
  shard: 5,
  shardCount: 8,
  observedAtMs: Date.UTC(2026, 0, 1),
  lease: { owner: "host-a", fencingToken: 4, remainingMs: 1800 },
  lastFencingToken: 4,
  outboxConfirmed: true,
  dirty: false,
  generations: [
    {
      generation: 12,
      latest: true,
      machineVersion: "1",
      stateValue: "idle",
      status: "active",
      eventSeq: 7,
      inboxSeq: 31,
      effects: [{ effectId: "fx-1", effect: "model.call", cancelled: true }],
      timers: [
        {
          timerId: "t-1",
          eventType: "session.expire",
          deadlineMs: Date.UTC(2026, 0, 1) + 4500,
          dueInMs: 4500,
        },
      ],
      outboxItems: 2,
      context: { sessionId: "s1" },
    },
    {
      generation: 11,
      latest: false,
      machineVersion: "1",
      stateValue: { running: "streaming" },
      status: "active",
      eventSeq: 5,
      inboxSeq: 30,
      effects: [],
      timers: [],
      outboxItems: 1,
      context: { sessionId: "s1" },
    },
  ],
  notes: ["something odd"],
};

describe("formatActorInspection", () => {
  it("prints the summary, the generation table, the latest details and the notes", () => {
    const text = formatActorInspection(inspection);
    expect(text).toContain("actor       session/s1");
    expect(text).toContain("shard       5 of 8");
    expect(text).toContain("lease       host-a (token 4, 1.8 s left)");
    expect(text).toContain("outbox      confirmed published");
    const lines = text.split("\n");
    const header = lines.findIndex((line) => line.startsWith("gen"));
    expect(lines[header]).toBe(
      "gen          version  status  state              event seq  inbox seq  effects  timers  outbox",
    );
    expect(lines[header + 1]).toBe(
      " 12  latest  1        active  idle                       7         31        1       1       2",
    );
    expect(lines[header + 2]).toBe(
      " 11          1        active  running.streaming          5         30        0       0       1",
    );
    expect(text).toContain("    fx-1  model.call  cancelled");
    expect(text).toContain("    t-1  session.expire  in 4.5 s  2026-01-01T00:00:04.500Z");
    expect(text).toContain('  context  {"sessionId":"s1"}');
    expect(text.endsWith("notes:\n  - something odd")).toBe(true);
  });

  it("says plainly that an unknown actor does not exist and its shard is free", () => {
    const text = formatActorInspection({
      ...inspection,
      exists: false,
      lease: { owner: undefined, fencingToken: undefined, remainingMs: undefined },
      lastFencingToken: undefined,
      outboxConfirmed: undefined,
      generations: [],
      notes: [],
    });
    expect(text).toBe(
      [
        "actor       session/s1",
        "exists      no (no snapshot stored)",
        "shard       5 of 8",
        "lease       free (no host holds the shard)",
        "last token  -",
        "outbox      -",
        "dirty       no",
      ].join("\n"),
    );
  });
});

describe("formatStateValue", () => {
  it("reads nested and parallel state values", () => {
    expect(formatStateValue("idle")).toBe("idle");
    expect(formatStateValue({ running: { tools: "waiting" } })).toBe("running.tools.waiting");
    expect(formatStateValue({ a: "x", b: { c: "y" } })).toBe("{a: x, b: c.y}");
    expect(formatStateValue(undefined)).toBe("-");
  });
});

describe("the pinned definition of a run actor", () => {
  const hash = "a1b2c3d4e5f6".padEnd(64, "0");
  const from = "0f".repeat(32);

  it("is read from the run's context, and printed as one line", () => {
    const view = pinnedDefinitionOf({
      sessionId: "s1",
      run: {
        runId: "r1",
        agent: "cashier",
        definition: { hash, version: "2", migratedFrom: { hash: from, version: "1" } },
      },
    });
    expect(view).toEqual({
      agent: "cashier",
      hash,
      version: "2",
      migratedFrom: { hash: from, version: "1" },
    });
    const text = formatActorInspection({ ...inspection, address: "run/s1", definition: view });
    expect(text).toContain(
      "definition  cashier version 2 (sha256 a1b2c3d4e5f6), migrated from version 1 (sha256 0f0f0f0f0f0f)",
    );
    expect(formatActorInspection(inspection)).not.toContain("definition");
  });

  it("is absent for a session, an idle run and a run not pinned yet", () => {
    expect(pinnedDefinitionOf({ sessionId: "s1", queue: [] })).toBeUndefined();
    expect(pinnedDefinitionOf({ sessionId: "s1", run: undefined })).toBeUndefined();
    expect(pinnedDefinitionOf({ run: { runId: "r1" } })).toBeUndefined();
    expect(pinnedDefinitionOf({ run: { runId: "r1", definition: { hash } } })).toEqual({ hash });
    expect(formatPinnedDefinition({ hash })).toBe(
      "the default agent no version (sha256 a1b2c3d4e5f6)",
    );
  });
});
