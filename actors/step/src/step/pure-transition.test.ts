import { isDeepStrictEqual } from "node:util";
import {
  assign,
  cancel,
  emit,
  enqueueActions,
  initialTransition,
  raise,
  setup,
  transition,
  type AnyMachineSnapshot,
} from "xstate";
import { hostActionImplementations, sendMessage } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { persistedSnapshotOf, pureInitialTransition, pureTransition } from "./pure-transition.js";

// The kept actor scope (issue #32) must give exactly what xstate's own pure
// functions give, over a machine with what the agent machines use: a context
// built from input, assigns, delayed raises and their cancellation, emits,
// sends to other actors, parallel regions and a history state.

type Event =
  | { type: "add"; by: number }
  | { type: "bump" }
  | { type: "arm" }
  | { type: "disarm" }
  | { type: "pause" }
  | { type: "resume" }
  | { type: "tick" };

const machine = setup({
  types: {
    input: {} as { address: { id: string } },
    context: {} as { id: string; total: number; log: string[]; nested: { deep: number[] } },
    events: {} as Event,
  },
  actions: { ...hostActionImplementations },
}).createMachine({
  id: "probe",
  context: ({ input }) => ({ id: input.address.id, total: 0, log: [], nested: { deep: [] } }),
  entry: emit({ type: "probe.created" }),
  type: "parallel",
  states: {
    counting: {
      initial: "active",
      states: {
        active: {
          initial: "low",
          states: {
            low: { on: { bump: { target: "high" } } },
            high: {},
            previous: { type: "history", history: "deep" },
          },
          on: { pause: "paused" },
        },
        paused: { on: { resume: "active.previous" } },
      },
    },
    timer: {
      on: {
        arm: { actions: raise({ type: "tick" }, { id: "tick", delay: 1000 }) },
        disarm: { actions: cancel("tick") },
      },
    },
  },
  on: {
    add: {
      actions: [
        assign({
          total: ({ context, event }) => context.total + event.by,
          log: ({ context, event }) => [...context.log, `add ${event.by}`],
          nested: ({ context, event }) => ({ deep: [...context.nested.deep, event.by] }),
        }),
        emit(({ event }) => ({ type: "probe.added", by: event.by })),
        enqueueActions(({ enqueue, event }) =>
          enqueue(sendMessage({ to: "other/a1", type: "added", payload: { by: event.by } })),
        ),
      ],
    },
    tick: { actions: assign({ log: ({ context }) => [...context.log, "tick"] }) },
  },
});

const events: Event[] = [
  { type: "add", by: 2 },
  { type: "bump" },
  { type: "arm" },
  { type: "pause" },
  { type: "add", by: 3 },
  { type: "resume" },
  { type: "tick" },
  { type: "disarm" },
];

/** What of an action the step reads: its type and resolved parameters. */
function actionData(actions: readonly unknown[]): unknown[] {
  return actions.map((action) => {
    const { type, params } = action as { type: string; params?: unknown };
    return { type, params };
  });
}

describe("pure transitions with a kept actor scope (issue #32)", () => {
  it("give xstate's initial snapshot, snapshots, persisted snapshots and actions at every step", () => {
    const input = { address: { id: "p1" } };
    const [ours, ourInitialActions] = pureInitialTransition(machine, input);
    const [theirs, theirInitialActions] = initialTransition(machine, input);
    expect(persistedSnapshotOf(machine, ours)).toEqual(machine.getPersistedSnapshot(theirs));
    expect(actionData(ourInitialActions)).toEqual(actionData(theirInitialActions));
    let mine: AnyMachineSnapshot = ours;
    let xstates: AnyMachineSnapshot = theirs;
    for (const event of events) {
      const [next, actions] = pureTransition(machine, mine, event);
      const [expected, expectedActions] = transition(machine, xstates, event);
      const persisted = persistedSnapshotOf(machine, next);
      // Equal, key order included (the stored bytes are the msgpack of this object).
      expect(isDeepStrictEqual(persisted, machine.getPersistedSnapshot(expected))).toBe(true);
      expect(Object.keys(persisted)).toEqual(Object.keys(machine.getPersistedSnapshot(expected)));
      expect(actionData(actions)).toEqual(actionData(expectedActions));
      mine = next;
      xstates = expected;
    }
    // The walk reached what it was meant to: the history state restored the
    // deep state, the delayed raise fired, and every add counted.
    expect(mine.value).toEqual({ counting: { active: "high" }, timer: {} });
    expect((mine.context as { total: number; log: string[] }).total).toBe(5);
    expect((mine.context as { log: string[] }).log).toEqual(["add 2", "add 3", "tick"]);
    expect((persistedSnapshotOf(machine, mine).historyValue as object) ?? {}).not.toEqual({});
  });

  it("collects each call's actions apart: a second call does not see the first one's", () => {
    const [initial] = pureInitialTransition(machine, { address: { id: "p2" } });
    const [, first] = pureTransition(machine, initial, { type: "add", by: 1 } as Event);
    const [, second] = pureTransition(machine, initial, { type: "pause" });
    expect(actionData(first).map((action) => (action as { type: string }).type)).toEqual([
      "xstate.emit",
      "troupe.send",
    ]);
    expect(second).toEqual([]);
  });

  it("leaves the snapshot it started from unchanged", () => {
    const [initial] = pureInitialTransition(machine, { address: { id: "p3" } });
    const before = structuredClone(persistedSnapshotOf(machine, initial));
    pureTransition(machine, initial, { type: "add", by: 7 } as Event);
    expect(persistedSnapshotOf(machine, initial)).toEqual(before);
  });
});
