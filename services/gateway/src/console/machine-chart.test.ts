import { runMachine, sessionMachine, toolCallMachine } from "@troupe/machines";
import { describe, expect, it } from "vitest";
import {
  activeStateIds,
  machineChart,
  type ChartState,
  type StateNodeDefinitionLike,
} from "./machine-chart.js";

const ids = (state: ChartState): string[] => [state.id, ...state.states.flatMap(ids)];

describe("machineChart", () => {
  it("turns a nested definition into a tree with initial states, merged guarded alternatives and readable delays", () => {
    const leaf = (id: string, on: StateNodeDefinitionLike["on"] = {}): StateNodeDefinitionLike => ({
      id,
      key: id.split(".").at(-1)!,
      type: "atomic",
      states: {},
      on,
    });
    const chart = machineChart("demo", {
      id: "m",
      key: "m",
      type: "compound",
      initial: { target: [{ id: "m.a" }] },
      states: {
        a: leaf("m.a", {
          go: [
            { eventType: "go", guard: "isReady", target: ["#m.b.x"] },
            { eventType: "go", guard: { type: "isLate" }, target: ["#m.b.x"] },
            { eventType: "go", target: undefined },
          ],
          "xstate.after.retryDelay.m.a": [
            { eventType: "xstate.after.retryDelay.m.a", target: ["#m.a"] },
          ],
        }),
        b: {
          id: "m.b",
          key: "b",
          type: "compound",
          description: "nested",
          initial: { target: [{ id: "m.b.x" }] },
          states: { x: leaf("m.b.x"), y: { ...leaf("m.b.y"), type: "final" } },
          on: {},
        },
      },
      on: {},
    });
    expect(chart.machineId).toBe("m");
    expect(chart.kind).toBe("demo");
    expect(ids(chart.root)).toEqual(["m", "m.a", "m.b", "m.b.x", "m.b.y"]);
    expect(chart.root.initial).toBe("m.a");
    const [a, b] = chart.root.states;
    expect(a!.transitions).toEqual([
      { event: "go", targets: ["m.b.x"], guards: ["isReady", "isLate"] },
      { event: "after retryDelay", targets: ["m.a"], guards: [] },
    ]);
    expect(b!.description).toBe("nested");
    expect(b!.initial).toBe("m.b.x");
    expect(b!.states[1]!.type).toBe("final");
  });

  it("reads the real session, run and tool call machines, whose targets are all states of the chart", () => {
    for (const [kind, machine] of [
      ["session", sessionMachine],
      ["run", runMachine],
      ["tool", toolCallMachine],
    ] as const) {
      const chart = machineChart(kind, machine.root.definition);
      const known = new Set(ids(chart.root));
      expect(chart.machineId).toBe(kind);
      expect(known.has(`${kind}.idle`)).toBe(true);
      const targets = ids(chart.root).length > 1 ? collectTargets(chart.root) : [];
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) expect(known.has(target)).toBe(true);
    }
    const run = machineChart("run", runMachine.root.definition);
    const calling = run.root.states.find((state) => state.id === "run.calling")!;
    expect(calling.transitions.some((t) => t.targets.includes("run.runningTools"))).toBe(true);
  });
});

function collectTargets(state: ChartState): string[] {
  return [
    ...state.transitions.flatMap((transition) => transition.targets),
    ...state.states.flatMap(collectTargets),
  ];
}

describe("activeStateIds", () => {
  it("names the active states of flat, nested and parallel values", () => {
    expect(activeStateIds("run", "calling")).toEqual(["run.calling"]);
    expect(activeStateIds("m", { b: "x" })).toEqual(["m.b", "m.b.x"]);
    expect(activeStateIds("m", { p: { r1: "a", r2: { q: "z" } } })).toEqual([
      "m.p",
      "m.p.r1",
      "m.p.r1.a",
      "m.p.r2",
      "m.p.r2.q",
      "m.p.r2.q.z",
    ]);
    expect(activeStateIds("m", null)).toEqual([]);
    expect(activeStateIds("m", 3)).toEqual([]);
  });
});
