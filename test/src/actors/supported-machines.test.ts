import { runMachine, sessionMachine, toolCallMachine } from "@troupe/machines";
import { assertSupportedMachine, defineActorKind } from "@troupe/runtime";
import type { AnyStateMachine } from "xstate";
import { describe, expect, it } from "vitest";
import { counterKind } from "../fixtures/counter-machine.js";

function kindOf(kind: string, machine: AnyStateMachine) {
  return defineActorKind({ kind, machine, version: "1", messageSchemas: {} });
}

describe("the machines Troupe hosts pass the host's machine check", () => {
  it.each([
    ["session", sessionMachine],
    ["run", runMachine],
    ["tool", toolCallMachine],
  ] as const)("the %s machine of @troupe/machines", (kind, machine) => {
    expect(() => assertSupportedMachine(kindOf(kind, machine))).not.toThrow();
  });

  it("the counter test fixture", () => {
    expect(() => assertSupportedMachine(counterKind)).not.toThrow();
  });
});
