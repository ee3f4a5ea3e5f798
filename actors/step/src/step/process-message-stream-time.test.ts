import { encodeMessage } from "@troupe/protocol";
import { assign, raise, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineActorKind } from "../registry/actor-kind.js";
import { processMessage, type InboxMessage, type StepResult } from "./process-message.js";

// `withStreamTime` (issue #19): a kind's events carry the stream time of the
// inbox message, the "now" its delays count from.

type Seen = { type: string; streamTimeMs: number | undefined };

const machine = setup({
  types: {
    context: {} as { seen: Seen[] },
    events: {} as { type: "arm" | "ring"; streamTimeMs?: number },
  },
}).createMachine({
  id: "clocked",
  context: { seen: [] },
  on: {
    arm: {
      actions: [
        assign({
          seen: ({ context, event }) => [
            ...context.seen,
            { type: event.type, streamTimeMs: event.streamTimeMs },
          ],
        }),
        raise({ type: "ring" }, { id: "ring", delay: 500 }),
      ],
    },
    ring: {
      actions: assign({
        seen: ({ context, event }) => [
          ...context.seen,
          { type: event.type, streamTimeMs: event.streamTimeMs },
        ],
      }),
    },
  },
});

const kind = (withStreamTime: boolean) =>
  defineActorKind({
    kind: "clocked",
    machine,
    version: "1",
    messageSchemas: { arm: z.object({}) },
    ...(withStreamTime ? { withStreamTime: true } : {}),
  });
const address = { kind: "clocked", id: "c1" };

function inbox(seq: number, type: string, payload: object, timestampMs: number): InboxMessage {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type,
    payload,
    // The sender's own clock: the step must not take this for the stream time.
    meta: { timestampMs: 5 },
  });
  return { seq, subject: "_troupe.inbox.0.clocked.c1", data: bytes, contentType, timestampMs };
}

function committed(result: StepResult) {
  if (result.outcome !== "committed") throw new Error(`expected a commit, got ${result.outcome}`);
  return result;
}

const seen = (result: ReturnType<typeof committed>) =>
  (result.record.state as { context: { seen: Seen[] } }).context.seen;

describe("processMessage with withStreamTime", () => {
  it("commands and timer firings carry the stream time, and the timer's deadline counts from it", () => {
    const definition = kind(true);
    const armed = committed(
      processMessage(undefined, inbox(1, "arm", {}, 1_000_000), { definition, address }),
    );
    expect(armed.record.timers).toEqual([
      expect.objectContaining({ timerId: "ring", deadlineMs: 1_000_500 }),
    ]);
    const rung = committed(
      processMessage(
        armed.record,
        inbox(2, "timer.fired", { timerId: "ring", deadlineMs: 1_000_500 }, 1_000_730),
        { definition, address },
      ),
    );
    expect(seen(rung)).toEqual([
      { type: "arm", streamTimeMs: 1_000_000 },
      { type: "ring", streamTimeMs: 1_000_730 },
    ]);
  });

  it("without it, events are as before (no streamTimeMs)", () => {
    const definition = kind(false);
    const armed = committed(
      processMessage(undefined, inbox(1, "arm", {}, 1_000_000), { definition, address }),
    );
    expect(seen(armed)).toEqual([{ type: "arm", streamTimeMs: undefined }]);
  });

  /** A kind's actor armed at stream time 1 000 000 (its "ring" timer due at 1 000 500), and a firing of it. */
  const armedAndFired = (withStreamTime: boolean) => {
    const definition = kind(withStreamTime);
    const armed = committed(
      processMessage(undefined, inbox(1, "arm", {}, 1_000_000), { definition, address }),
    );
    return (seq: number, payload: Record<string, unknown>, streamTimeMs: number) =>
      processMessage(
        armed.record,
        inbox(
          seq,
          "timer.fired",
          { timerId: "ring", deadlineMs: 1_000_500, ...payload },
          streamTimeMs,
        ),
        { definition, address },
      );
  };

  it("one clock (issue #31): a firing before the deadline by stream time changes nothing and asks to re-arm; at the deadline it rings", () => {
    const fire = armedAndFired(true);
    // The timer store's clock ran 200 ms ahead of the stream's.
    expect(fire(2, {}, 1_000_300)).toEqual({
      outcome: "skipped",
      reason: "early_timer",
      early: { timerId: "ring", deadlineMs: 1_000_500, earlyByMs: 200, rearmAtMs: 1_000_700 },
    });
    const onTime = committed(fire(3, {}, 1_000_500));
    expect(seen(onTime).map((entry) => entry.type)).toEqual(["arm", "ring"]);
  });

  it("a test clock's advance counts as time passed: an advanced firing rings, and a partly advanced one re-arms at the rest", () => {
    const fire = armedAndFired(false);
    expect(fire(2, { advancedMs: 450 }, 1_000_050).outcome).toBe("committed");
    // Due 100 ms early by stream time + advance: back in at score 1_000_100 + 50.
    expect(fire(3, { advancedMs: 400 }, 1_000_050)).toMatchObject({
      reason: "early_timer",
      early: { earlyByMs: 50, rearmAtMs: 1_000_150 },
    });
  });
});
