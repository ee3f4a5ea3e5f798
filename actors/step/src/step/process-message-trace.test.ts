import { EFFECT_ACTION, encodeMessage, hostActionImplementations } from "@troupe/protocol";
import { emit, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineActorKind } from "../registry/actor-kind.js";
import { processMessage, type InboxMessage, type StepResult } from "./process-message.js";

// Issue #18: the step stamps the trace context of the host's span for the
// message on what it produces, so the effects and outbox of a step resumed
// after a crash continue the same trace.

const machine = setup({
  types: { events: {} as { type: "ask"; what: string } },
  actions: { ...hostActionImplementations },
}).createMachine({
  id: "asker",
  on: {
    ask: {
      actions: [
        emit(({ event }) => ({ type: "asker.asked", what: event.what })),
        { type: EFFECT_ACTION, params: ({ event }) => ({ effect: "lookup", input: event.what }) },
      ],
    },
  },
});
const definition = defineActorKind({
  kind: "asker",
  machine,
  version: "1",
  messageSchemas: { ask: z.object({ what: z.string() }) },
});
const options = { definition, address: { kind: "asker", id: "a1" } };

const traceA = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" };
const traceB = {
  traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  tracestate: "vendor=1",
};

function inbox(seq: number, type: string, payload: unknown, trace?: typeof traceA): InboxMessage {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type,
    payload: payload,
    meta: { timestampMs: 1_000 + seq },
  });
  return {
    seq,
    subject: "_troupe.inbox.1.asker.a1",
    data: bytes,
    contentType,
    timestampMs: 1_000 + seq,
    ...(trace === undefined ? {} : { trace }),
  };
}

function committed(result: StepResult) {
  if (result.outcome !== "committed") throw new Error(`expected a commit, got ${result.outcome}`);
  return result;
}

describe("processMessage stamps the message's trace context (issue #18)", () => {
  it("every new outbox item and new pending effect carries the step's trace; earlier effects keep theirs", () => {
    const first = committed(
      processMessage(undefined, inbox(1, "ask", { what: "x" }, traceA), options),
    );
    expect(first.record.outbox.length).toBeGreaterThan(0);
    expect(first.record.outbox.map((item) => item.trace)).toEqual(
      first.record.outbox.map(() => traceA),
    );
    expect(first.effectsStarted).toEqual([
      { effectId: "1.1", effect: "lookup", input: "x", trace: traceA },
    ]);
    const second = committed(
      processMessage(first.record, inbox(2, "ask", { what: "y" }, traceB), options),
    );
    expect(second.record.effects.map((effect) => [effect.effectId, effect.trace])).toEqual([
      ["1.1", traceA],
      ["2.1", traceB],
    ]);
    expect(second.effectsStarted.map((effect) => effect.trace)).toEqual([traceB]);
    expect(second.record.outbox.every((item) => item.trace === traceB)).toBe(true);
  });

  it("a message without trace context stamps nothing (tracing off: records as before)", () => {
    const result = committed(processMessage(undefined, inbox(1, "ask", { what: "x" }), options));
    expect(result.record.outbox.some((item) => "trace" in item)).toBe(false);
    expect(result.record.effects.some((effect) => "trace" in effect)).toBe(false);
  });

  it("a rejected message's dead letter and message.rejected carry the trace too", () => {
    const first = committed(processMessage(undefined, inbox(1, "ask", { what: "x" }), options));
    const rejected = committed(
      processMessage(first.record, inbox(2, "ask", { what: 42 }, traceB), options),
    );
    expect(rejected.rejection?.code).toBe("decode_failed");
    expect(rejected.record.outbox.length).toBe(2);
    expect(rejected.record.outbox.map((item) => item.trace)).toEqual([traceB, traceB]);
    // the pending effect of the first step is untouched
    expect(rejected.record.effects.map((effect) => effect.trace)).toEqual([undefined]);
  });
});
