import {
  createActor,
  initialTransition,
  transition,
  type AnyStateMachine,
  type EventFrom,
  type InputFrom,
  type SnapshotFrom,
} from "xstate";

/** An action a transition requested, without xstate's execution info. */
export interface RequestedAction {
  readonly type: string;
  readonly params?: unknown;
}

/** A snapshot and the actions the transition that produced it requested. */
export interface PureStep<TMachine extends AnyStateMachine> {
  readonly snapshot: SnapshotFrom<TMachine>;
  readonly actions: RequestedAction[];
}

/**
 * Strips xstate's execution info from action objects, keeping `{ type, params }`,
 * so tests can compare them with the host action creators' output. Immediate
 * raises (`xstate.raise` without a delay) are left out: xstate takes them
 * within the same transition and the host ignores them.
 *
 * @param actions - actions returned by `initialTransition` / `transition`.
 * @returns the actions the host acts on, as plain `{ type, params }` objects.
 */
export function requestedActions(actions: readonly unknown[]): RequestedAction[] {
  return actions
    .map((action) => {
      const { type, params } = action as { type: string; params?: unknown };
      return params === undefined ? { type } : { type, params };
    })
    .filter(
      (action) =>
        action.type !== "xstate.raise" ||
        (action.params as { delay?: unknown }).delay !== undefined,
    );
}

/**
 * The first snapshot of a machine, as the host makes it for a new actor.
 *
 * @param machine - the machine.
 * @param input - its input (`{ address }`).
 * @returns the initial snapshot and the actions its entry requested.
 */
export function startMachine<TMachine extends AnyStateMachine>(
  machine: TMachine,
  input: InputFrom<TMachine>,
): PureStep<TMachine> {
  const [snapshot, actions] = initialTransition(machine, input);
  return { snapshot, actions: requestedActions(actions) };
}

/**
 * One transition the way the host takes it: the snapshot goes through its
 * persisted form and JSON first (as if read back from the snapshot store), then
 * takes the event purely.
 *
 * @param machine - the machine.
 * @param snapshot - the current snapshot.
 * @param event - the machine event.
 * @returns the next snapshot and the actions the transition requested.
 */
export function sendEvent<TMachine extends AnyStateMachine>(
  machine: TMachine,
  snapshot: SnapshotFrom<TMachine>,
  event: EventFrom<TMachine>,
): PureStep<TMachine> {
  const stored = JSON.parse(JSON.stringify(machine.getPersistedSnapshot(snapshot))) as unknown;
  const restored = createActor(machine as AnyStateMachine, {
    snapshot: stored as never,
  }).getSnapshot() as SnapshotFrom<TMachine>;
  const [next, actions] = transition(machine, restored, event);
  return { snapshot: next, actions: requestedActions(actions) };
}

/**
 * The event types a transition's `troupe.emit` actions publish, in order.
 *
 * @param actions - requested actions.
 */
export function emittedTypes(actions: readonly RequestedAction[]): string[] {
  return actions
    .filter((action) => action.type === "troupe.emit")
    .map((action) => (action.params as { type: string }).type);
}
