import type { AnyStateMachine, AnyStateNode } from "xstate";
import { UnsupportedMachineActionError } from "../errors/unsupported-machine-action-error.js";
import type { ActorKindDefinition } from "./actor-kind.js";
import {
  ACTION_IMPLEMENTATION_REASON,
  CHILD_ACTOR_REASON,
  XSTATE_RESOLVED_ACTION_TYPES,
  unsupportedActionReason,
} from "./machine-action-support.js";

/**
 * Checks that the host can run a kind's machine: walks every state node and
 * refuses what the host cannot carry out instead of dropping it at run time —
 * `invoke`, `spawnChild`, `stopChild`, `sendTo` (and `sendParent`,
 * `forwardTo`), named custom actions and inline action functions — in entry and
 * exit actions, transitions (`on`, `after`, `always`, done events). Named
 * actions are judged by their implementation in `setup({ actions })`: one
 * implemented with `enqueueActions` passes here and its enqueued actions are
 * checked by the step, message by message (see `processMessage`).
 *
 * Allowed: `assign`, `raise` (delayed: a durable timer), `cancel`, `emit`,
 * `log`, `enqueueActions` and the `troupe.*` host actions of `@troupe/protocol`.
 *
 * @param definition - the kind to check.
 * @throws UnsupportedMachineActionError naming the kind, the state path and the
 *   first unsupported action or `invoke` found (states in document order).
 * @example
 * assertSupportedMachine(counterKind); // returns; throws for a machine that invokes a promise
 */
export function assertSupportedMachine(definition: ActorKindDefinition): void {
  const { machine, kind } = definition;
  for (const node of stateNodes(machine.root)) {
    const statePath = node.path.join(".");
    const refuse = (action: string, reason: string) => {
      throw new UnsupportedMachineActionError(kind, statePath, action, reason);
    };
    for (const invoke of node.invoke) {
      const source = typeof invoke.src === "string" ? `"${invoke.src}"` : "an inline actor logic";
      refuse(`invoke of ${source} (id "${invoke.id}")`, CHILD_ACTOR_REASON);
    }
    // Reading `transitions` first also adds the raise/cancel actions of `after` to entry/exit.
    const transitions = [
      ...[...node.transitions.entries()].flatMap(([eventType, list]) =>
        list.map((transition) => ({ where: `on "${eventType}"`, actions: transition.actions })),
      ),
      ...(node.always ?? []).map((transition) => ({
        where: "always",
        actions: transition.actions,
      })),
    ];
    const groups = [
      { where: "entry", actions: node.entry },
      { where: "exit", actions: node.exit },
      ...transitions,
    ];
    for (const { where, actions } of groups) {
      for (const action of actions) {
        const problem = actionProblem(action, machine);
        if (problem !== undefined) refuse(`${problem.action} (${where})`, problem.reason);
      }
    }
  }
}

function* stateNodes(node: AnyStateNode): Generator<AnyStateNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* stateNodes(child);
}

/** What is wrong with one action of a state node, if anything. */
function actionProblem(
  action: unknown,
  machine: AnyStateMachine,
): { action: string; reason: string } | undefined {
  if (typeof action === "function") {
    const builtin = builtinType(action);
    if (builtin !== undefined) return builtinProblem(builtin);
    // No name: JavaScript names an arrow function after the property holding it ("actions").
    return { action: "an inline action function", reason: ACTION_IMPLEMENTATION_REASON };
  }
  const type =
    typeof action === "string"
      ? action
      : typeof action === "object" && action !== null && "type" in action
        ? String(action.type)
        : undefined;
  if (type === undefined) return undefined;
  if (unsupportedActionReason(type) === undefined) return undefined;
  const implementation = (machine.implementations.actions as Record<string, unknown>)[type];
  const builtin = builtinType(implementation);
  if (builtin !== undefined) {
    const problem = builtinProblem(builtin);
    return problem === undefined
      ? undefined
      : { action: `action "${type}" (${problem.action})`, reason: problem.reason };
  }
  return {
    action:
      implementation === undefined
        ? `action "${type}" (no implementation)`
        : `custom action "${type}"`,
    reason: ACTION_IMPLEMENTATION_REASON,
  };
}

function builtinProblem(type: string): { action: string; reason: string } | undefined {
  if (XSTATE_RESOLVED_ACTION_TYPES.has(type)) return undefined;
  const reason = unsupportedActionReason(type);
  return reason === undefined ? undefined : { action: type, reason };
}

/** The `type` of an xstate built-in action creator's result (`xstate.raise`, …), else undefined. */
function builtinType(value: unknown): string | undefined {
  if (typeof value !== "function") return undefined;
  const { type, resolve } = value as { type?: unknown; resolve?: unknown };
  return typeof type === "string" && typeof resolve === "function" ? type : undefined;
}
