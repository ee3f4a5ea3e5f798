/**
 * A statechart as the console draws it (docs/decisions/0029): the states of an xstate
 * machine as a tree, with the transitions leaving each state. Plain JSON.
 *
 * Shape: `{ kind, machineId, root: ChartState }`; `kind` is the actor kind the
 * machine runs as (`session`, `run`, `tool`).
 */
export interface MachineChart {
  readonly kind: string;
  readonly machineId: string;
  readonly root: ChartState;
}

/**
 * One state of a {@link MachineChart}.
 *
 * Shape: `{ id, key, type, initial?, description?, states: ChartState[], transitions: ChartTransition[] }`;
 * `id` is the dotted path from the machine (`run.calling`), `type` one of
 * `atomic | compound | parallel | final | history`, `initial` the id of the
 * initial child of a compound state.
 */
export interface ChartState {
  readonly id: string;
  readonly key: string;
  readonly type: string;
  readonly initial?: string;
  readonly description?: string;
  readonly states: readonly ChartState[];
  readonly transitions: readonly ChartTransition[];
}

/**
 * A transition leaving a state: the event that takes it, the states it enters
 * (ids, as {@link ChartState.id}) and the guards of the alternatives that
 * lead there (`[]` when unguarded). Transitions with no target (handled in
 * place) are left out: they do not change the state.
 */
export interface ChartTransition {
  readonly event: string;
  readonly targets: readonly string[];
  readonly guards: readonly string[];
}

/**
 * The parts of an xstate v5 `StateNodeDefinition` (`machine.root.definition`)
 * the conversion reads; structural, so the gateway needs no xstate import.
 */
export interface StateNodeDefinitionLike {
  readonly id: string;
  readonly key: string;
  readonly type: string;
  readonly description?: string | undefined;
  readonly initial?: { readonly target: ReadonlyArray<{ readonly id: string }> } | undefined;
  readonly states: Readonly<Record<string, StateNodeDefinitionLike>>;
  readonly on: Readonly<
    Record<
      string,
      ReadonlyArray<{
        /** `#id` strings (serialized) or state nodes with an `id`. */
        readonly target?: ReadonlyArray<string | { readonly id: string }> | undefined;
        readonly guard?: unknown;
        readonly eventType: string;
      }>
    >
  >;
}

/**
 * Converts a machine definition to a {@link MachineChart}. Pure.
 *
 * Event names of delayed transitions (`xstate.after.<delay>.<state>`) become
 * `after <delay>`; target ids lose xstate's leading `#`. Alternatives of one
 * event with the same targets are merged (their guards listed together).
 *
 * @param kind - the actor kind the machine runs as, e.g. `run`.
 * @param root - `machine.root.definition` of an xstate v5 machine.
 * @returns the chart.
 * @example machineChart("run", runMachine.root.definition).root.states.map((s) => s.id)
 * // ["run.idle", "run.calling", …]
 */
export function machineChart(kind: string, root: StateNodeDefinitionLike): MachineChart {
  return { kind, machineId: root.id, root: chartState(root) };
}

function chartState(node: StateNodeDefinitionLike): ChartState {
  const initial = node.initial?.target[0]?.id;
  return {
    id: node.id,
    key: node.key,
    type: node.type,
    ...(initial === undefined ? {} : { initial }),
    ...(node.description === undefined ? {} : { description: node.description }),
    states: Object.values(node.states).map(chartState),
    transitions: transitionsOf(node),
  };
}

function transitionsOf(node: StateNodeDefinitionLike): ChartTransition[] {
  const merged = new Map<string, { event: string; targets: string[]; guards: string[] }>();
  for (const [eventType, alternatives] of Object.entries(node.on)) {
    for (const alternative of alternatives) {
      const targets = (alternative.target ?? []).map((target) =>
        typeof target === "string" ? target.replace(/^#/, "") : target.id,
      );
      if (targets.length === 0) continue;
      const event = eventName(eventType);
      const key = `${event}\u0000${targets.join("\u0000")}`;
      const entry = merged.get(key) ?? { event, targets, guards: [] };
      const guard = guardName(alternative.guard);
      if (guard !== undefined && !entry.guards.includes(guard)) entry.guards.push(guard);
      merged.set(key, entry);
    }
  }
  return [...merged.values()];
}

function eventName(eventType: string): string {
  const delayed = /^xstate\.after\.([^.]+)\./.exec(eventType);
  return delayed === null ? eventType : `after ${delayed[1]}`;
}

function guardName(guard: unknown): string | undefined {
  if (typeof guard === "string") return guard;
  if (typeof guard === "object" && guard !== null && "type" in guard) {
    const type = guard.type;
    if (typeof type === "string") return type;
  }
  if (typeof guard === "function") return guard.name === "" ? "guard" : guard.name;
  return undefined;
}

/**
 * The ids of the states a state value makes active, outermost first. Pure.
 *
 * @param machineId - the machine's id (its root state's id), e.g. `run`.
 * @param value - an xstate state value: `"calling"`, or `{ a: "b" }` for
 *   nested states, `{ a: "x", b: "y" }` for parallel regions.
 * @returns e.g. `["run.calling"]`, `["m.a", "m.a.b"]`; `[]` for a value that
 *   is neither a string nor an object of them.
 */
export function activeStateIds(machineId: string, value: unknown): string[] {
  if (typeof value === "string") return [`${machineId}.${value}`];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => {
    const id = `${machineId}.${key}`;
    return [id, ...activeStateIds(id, inner)];
  });
}
