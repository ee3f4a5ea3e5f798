import {
  createActor,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
} from "xstate";
import type { MachineAction } from "./interpret-actions.js";

/**
 * One inert actor scope per machine, reused by every pure transition of it,
 * and the list its action executor fills during one call.
 */
interface InertScope {
  readonly scope: Parameters<AnyStateMachine["transition"]>[2];
  actions: MachineAction[];
}

const scopes = new WeakMap<AnyStateMachine, InertScope>();

/**
 * xstate's `transition` and `initialTransition` build a new inert actor scope
 * on every call, and the `Actor` inside it computes the machine's initial
 * snapshot eagerly (its context factory, its entry actions) only to throw it
 * away: a third of the step's time for the agent machines (measured by a host
 * CPU profile). The scope carries nothing from one transition to the next —
 * actions are collected, never executed; deferred work and emits are dropped;
 * children are refused by the step — so one is built per machine and kept. Its
 * actor computes the initial snapshot once, without input (a context factory
 * that needs input fails there, inside xstate, as it does in every call of
 * xstate's own functions).
 */
function inertScope(machine: AnyStateMachine): InertScope {
  let entry = scopes.get(machine);
  if (entry !== undefined) return entry;
  const self = createActor(machine);
  const created: InertScope = {
    actions: [],
    scope: {
      self,
      defer: () => {},
      id: "",
      logger: () => {},
      sessionId: "",
      stopChild: () => {},
      system: self.system,
      emit: () => {},
      actionExecutor: (action) => {
        created.actions.push(action);
      },
    },
  };
  scopes.set(machine, created);
  entry = created;
  return entry;
}

/**
 * The pure transition of `machine` from `snapshot` on `event`: what xstate's
 * `transition(machine, snapshot, event)` returns, with a kept actor scope
 * (see {@link inertScope}). Nothing is executed.
 *
 * @param machine - the machine.
 * @param snapshot - its current snapshot (live or restored).
 * @param event - the event.
 * @returns the next snapshot and the actions to carry out, in order.
 * @throws whatever the machine's transition throws.
 */
export function pureTransition(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
  event: EventObject,
): [AnyMachineSnapshot, MachineAction[]] {
  const entry = inertScope(machine);
  entry.actions = [];
  const next = machine.transition(snapshot, event, entry.scope) as AnyMachineSnapshot;
  return [next, entry.actions];
}

/**
 * The machine's initial snapshot for `input` and the actions of getting there:
 * xstate's `initialTransition(machine, input)` with a kept actor scope.
 *
 * @param machine - the machine.
 * @param input - its input.
 * @returns the initial snapshot and the actions, in order.
 * @throws whatever the machine's initial transition throws.
 */
export function pureInitialTransition(
  machine: AnyStateMachine,
  input: unknown,
): [AnyMachineSnapshot, MachineAction[]] {
  const entry = inertScope(machine);
  entry.actions = [];
  const initial = machine.getInitialSnapshot(entry.scope, input) as AnyMachineSnapshot;
  return [initial, entry.actions];
}

/**
 * `machine.getPersistedSnapshot(snapshot)` for a snapshot without children,
 * without xstate's walk of the whole context looking for actor references
 * (an actor's context holds none: the step refuses children, and a context
 * restored from the store or built from an actor's input is plain data). Its
 * cost grew with the context, on every step (docs/decisions/0051). A snapshot with
 * children goes to xstate.
 *
 * @param machine - the machine.
 * @param snapshot - a snapshot of it.
 * @returns the persisted snapshot, equal (`isDeepStrictEqual`) to xstate's.
 */
export function persistedSnapshotOf(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
): Record<string, unknown> {
  const { children } = snapshot as { children?: Record<string, unknown> };
  if (children !== undefined && Object.keys(children).length > 0)
    return machine.getPersistedSnapshot(snapshot);
  const {
    _nodes,
    tags,
    machine: _machine,
    children: _children,
    context,
    can,
    hasTag,
    matches,
    getMeta,
    toJSON,
    ...jsonValues
  } = snapshot as unknown as Record<string, unknown>;
  void [_nodes, tags, _machine, _children, can, hasTag, matches, getMeta, toJSON];
  return {
    ...jsonValues,
    context,
    children: {},
    historyValue: persistedHistoryValue(jsonValues.historyValue),
  };
}

/** A snapshot's history value as xstate persists it: each entry's state nodes by id. */
function persistedHistoryValue(historyValue: unknown): Record<string, { id: string }[]> {
  const persisted: Record<string, { id: string }[]> = {};
  if (typeof historyValue !== "object" || historyValue === null) return persisted;
  for (const [key, value] of Object.entries(historyValue)) {
    if (Array.isArray(value))
      persisted[key] = value.map((node: { readonly id: string }) => ({ id: node.id }));
  }
  return persisted;
}
