import { EFFECT_ACTION, hostActionImplementations, requestEffect } from "@troupe/protocol";
import {
  assign,
  cancel,
  createMachine,
  emit,
  enqueueActions,
  forwardTo,
  fromPromise,
  log,
  raise,
  sendParent,
  sendTo,
  setup,
  spawnChild,
  stopChild,
  type AnyStateMachine,
} from "xstate";
import { describe, expect, it } from "vitest";
import { UnsupportedMachineActionError } from "../errors/unsupported-machine-action-error.js";
import { defineActorKind } from "./actor-kind.js";
import { assertSupportedMachine } from "./assert-supported-machine.js";

const child = createMachine({});

function kind(machine: AnyStateMachine) {
  return defineActorKind({ kind: "probe", machine, version: "1", messageSchemas: {} });
}

/** A machine whose `working` state (under `busy`) has `config` (entry, invoke, on, …). */
function machineWith(config: Record<string, unknown>, actions: Record<string, unknown> = {}) {
  return setup({
    actors: { child, fetchUser: fromPromise(() => Promise.resolve(1)) },
    actions: { ...hostActionImplementations, ...(actions as Record<string, () => void>) },
  }).createMachine({
    id: "probe",
    initial: "idle",
    states: {
      idle: { on: { go: "busy" } },
      busy: { initial: "working", states: { working: config as never } },
    },
  });
}

function refusal(machine: AnyStateMachine): UnsupportedMachineActionError {
  try {
    assertSupportedMachine(kind(machine));
  } catch (error) {
    if (UnsupportedMachineActionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the machine to be refused");
}

describe("assertSupportedMachine refuses what the host cannot carry out, naming kind, state and action", () => {
  it.each([
    [
      "invoke",
      { invoke: { src: "fetchUser", id: "user" } },
      /invoke of "fetchUser" \(id "user"\)/,
      /child actors live in one process/,
    ],
    [
      "spawnChild",
      { entry: spawnChild("child", { id: "kid" }) },
      /xstate\.spawnChild \(entry\)/,
      /child actors live in one process/,
    ],
    [
      "stopChild",
      { exit: stopChild("kid") },
      /xstate\.stopChild \(exit\)/,
      /no child actors to stop/,
    ],
    [
      "sendTo",
      { on: { ping: { actions: sendTo("other", { type: "pong" }) } } },
      /xstate\.sendTo \(on "ping"\)/,
      /no in-process actors to send to/,
    ],
    [
      "sendParent",
      { always: { guard: () => false, actions: sendParent({ type: "done" }) } },
      /xstate\.sendTo \(always\)/,
      /sendParent/,
    ],
    [
      "forwardTo",
      { on: { ping: { actions: forwardTo("other") } } },
      /xstate\.sendTo \(on "ping"\)/,
      /forwardTo/,
    ],
    [
      "an inline action function",
      { entry: function notifyUser() {} },
      /an inline action function \(entry\)/,
      /runs no action implementations/,
    ],
    [
      "a named action with no implementation",
      { entry: "sendEmail" },
      /action "sendEmail" \(no implementation\) \(entry\)/,
      /would be dropped/,
    ],
  ])("%s", (_name, config, action, reason) => {
    const error = refusal(machineWith(config));
    expect(error.code).toBe("unsupported_machine_action");
    expect(error.retryable).toBe(false);
    expect(error.kind).toBe("probe");
    expect(error.statePath).toBe("busy.working");
    expect(error.message).toMatch(/^actor kind "probe": state "busy\.working" uses /);
    expect(error.action).toMatch(action);
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(
      /ask the host for IO with requestEffect\/sendMessage from @troupe\/protocol/,
    );
    expect(error.details).toEqual({
      kind: "probe",
      statePath: "busy.working",
      action: error.action,
    });
  });

  it("a named custom action is judged by its implementation in setup()", () => {
    const custom = refusal(machineWith({ entry: "notify" }, { notify: () => undefined }));
    expect(custom.action).toBe('custom action "notify" (entry)');
    const spawning = refusal(
      machineWith({ on: { go: { actions: "startChild" } } }, { startChild: spawnChild("child") }),
    );
    expect(spawning.action).toBe('action "startChild" (xstate.spawnChild) (on "go")');
  });

  it("names the root state node; delayed transitions with supported actions pass", () => {
    const machine = setup({}).createMachine({
      id: "root",
      initial: "a",
      states: { a: { after: { 500: { target: "a", actions: log("tick"), reenter: true } } } },
      on: { "*": { actions: () => undefined } },
    });
    const error = refusal(machine);
    expect(error.statePath).toBe("");
    expect(error.message).toMatch(
      /^actor kind "probe": the root state node uses an inline action function \(on "\*"\)/,
    );
  });
});

describe("assertSupportedMachine accepts what the host carries out", () => {
  it("assign, emit, raise (immediate and delayed), cancel, log, after, enqueueActions and the troupe.* host actions", () => {
    const machine = setup({
      actions: {
        ...hostActionImplementations,
        step: enqueueActions(({ enqueue }) =>
          enqueue(requestEffect({ effect: "double", input: 1 })),
        ),
        alarm: raise({ type: "alarm" }, { delay: 1000, id: "alarm" }),
      },
    }).createMachine({
      id: "ok",
      context: { count: 0 },
      entry: [log("hello"), "alarm"],
      initial: "a",
      states: {
        a: {
          after: { 1000: "b" },
          exit: cancel("alarm"),
          on: {
            add: {
              actions: [assign({ count: 1 }), emit({ type: "added" }), raise({ type: "now" })],
            },
            double: { actions: { type: EFFECT_ACTION, params: { effect: "double", input: 2 } } },
            go: { actions: "step" },
          },
        },
        b: { always: { target: "a", actions: requestEffect({ effect: "e", input: null }) } },
      },
    });
    expect(() => assertSupportedMachine(kind(machine))).not.toThrow();
  });
});
