import type { ActorRecord } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import { snapshotGenerationView } from "./snapshot-generation-view.js";

const record: ActorRecord = {
  address: "session/s1",
  generation: 4,
  inboxSeq: 17,
  machineVersion: "1",
  state: {
    status: "active",
    value: { running: "waiting" },
    context: { sessionId: "s1", blob: new Uint8Array([255]) },
    historyValue: {},
    children: {},
  },
  eventSeq: 9,
  effects: [
    { effectId: "fx-2", effect: "model.call", input: { big: true } },
    { effectId: "fx-3", effect: "tool.execute", input: {}, cancelled: true },
  ],
  timers: [
    { timerId: "late", deadlineMs: 20_000, event: { type: "run.timeout" } },
    { timerId: "early", deadlineMs: 9_000, event: { type: "session.expire" } },
  ],
  outbox: [
    {
      subject: "troupe.session.s1.events.run.started",
      messageId: "m",
      contentType: "x",
      body: new Uint8Array(),
    },
  ],
};

describe("snapshotGenerationView", () => {
  it("extracts state value, status, sequences, effects, timers (earliest first, due relative to now) and context", () => {
    const view = snapshotGenerationView(record, { latest: true, observedAtMs: 10_000 });
    expect(view).toEqual({
      generation: 4,
      latest: true,
      machineVersion: "1",
      stateValue: { running: "waiting" },
      status: "active",
      eventSeq: 9,
      inboxSeq: 17,
      effects: [
        { effectId: "fx-2", effect: "model.call", cancelled: false },
        { effectId: "fx-3", effect: "tool.execute", cancelled: true },
      ],
      timers: [
        { timerId: "early", eventType: "session.expire", deadlineMs: 9_000, dueInMs: -1_000 },
        { timerId: "late", eventType: "run.timeout", deadlineMs: 20_000, dueInMs: 10_000 },
      ],
      outboxItems: 1,
      context: { sessionId: "s1", blob: { bytes: 1, base64: "/w==" } },
    });
  });

  it("reports a record without a machine version or state as undefined/null, not a throw", () => {
    const view = snapshotGenerationView(
      { ...record, machineVersion: "", state: undefined, effects: [], timers: [], outbox: [] },
      { latest: false, observedAtMs: 0 },
    );
    expect(view.machineVersion).toBeUndefined();
    expect(view.status).toBeUndefined();
    expect(view.stateValue).toBeNull();
    expect(view.latest).toBe(false);
  });
});
