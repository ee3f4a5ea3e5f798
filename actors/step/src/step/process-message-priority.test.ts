import {
  EFFECT_ACTION,
  SEND_ACTION,
  encodeMessage,
  hostActionImplementations,
  type PriorityClass,
} from "@troupe/protocol";
import { emit, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineActorKind } from "../registry/actor-kind.js";
import { effectResultItem } from "./effect-result-item.js";
import { processMessage, type InboxMessage, type StepResult } from "./process-message.js";

// docs/decisions/0057: the step stamps the message's scheduling class on what it
// produces, unless the machine named a class itself; an effect's result message
// carries the effect's class.

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
        {
          type: SEND_ACTION,
          params: () => ({
            to: "asker/a2",
            type: "ask",
            payload: { what: "z" },
            priority: "batch",
          }),
        },
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

function inbox(seq: number, priority?: PriorityClass): InboxMessage {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type: "ask",
    payload: { what: "x" },
    meta: { timestampMs: 1_000 + seq },
  });
  return {
    seq,
    subject: "_troupe.inbox.1.asker.a1",
    data: bytes,
    contentType,
    timestampMs: 1_000 + seq,
    ...(priority === undefined ? {} : { priority }),
  };
}

function committed(result: StepResult) {
  if (result.outcome !== "committed") throw new Error(`expected a commit, got ${result.outcome}`);
  return result;
}

describe("processMessage stamps the message's scheduling class", () => {
  it("an interactive message's outbox items and effects are interactive; a class the machine named stays", () => {
    const result = committed(processMessage(undefined, inbox(1, "interactive"), options));
    expect(result.record.outbox.map((item) => [item.subject, item.priority])).toEqual([
      ["troupe.asker.a1.events.asker.asked", "interactive"],
      ["troupe.asker.a2.in", "batch"],
    ]);
    expect(result.effectsStarted).toEqual([
      { effectId: "1.1", effect: "lookup", input: "x", priority: "interactive" },
    ]);
  });

  it("a default message (or one with no class) stamps nothing", () => {
    for (const priority of [undefined, "default"] as const) {
      const result = committed(processMessage(undefined, inbox(1, priority), options));
      expect(result.record.outbox.map((item) => item.priority)).toEqual([undefined, "batch"]);
      expect(result.effectsStarted).toEqual([{ effectId: "1.1", effect: "lookup", input: "x" }]);
    }
  });

  it("an effect's result message carries the effect's class", () => {
    const { item } = effectResultItem({
      address: { kind: "asker", id: "a1" },
      effect: { effectId: "1.1", effect: "lookup", input: "x", priority: "interactive" },
      result: { type: "effect.completed", payload: { effectId: "1.1", output: "found" } },
      timestampMs: 2_000,
      maxPayloadBytes: 1_048_576,
    });
    expect(item).toMatchObject({ subject: "troupe.asker.a1.in", priority: "interactive" });
  });
});
