import type { ChartState, MachineChart } from "./gateway-shapes.js";

/**
 * A machine drawn as nested boxes: each state a box (compound states hold
 * their children), its outgoing transitions listed inside, the active states
 * (`active`, ids from the actor's snapshot) highlighted.
 */
export function Statechart({ chart, active }: { chart: MachineChart; active: readonly string[] }) {
  const activeSet = new Set(active);
  return (
    <div className="chart" data-testid={`chart-${chart.kind}`}>
      <div className="chart-children">
        {chart.root.states.map((state) => (
          <StateBox key={state.id} state={state} active={activeSet} initial={chart.root.initial} />
        ))}
      </div>
    </div>
  );
}

function StateBox({
  state,
  active,
  initial,
}: {
  state: ChartState;
  active: ReadonlySet<string>;
  initial: string | undefined;
}) {
  const isActive = active.has(state.id);
  return (
    <div
      className={`state ${isActive ? "active" : ""} ${state.type}`}
      data-state-id={state.id}
      data-active={isActive ? "true" : "false"}
      title={state.description}
    >
      <div className="state-name">
        {initial === state.id && (
          <span className="initial" title="initial state">
            ●
          </span>
        )}
        {state.key}
      </div>
      {state.transitions.length > 0 && (
        <ul className="transitions">
          {state.transitions.map((transition, index) => (
            <li
              key={index}
              title={transition.guards.length > 0 ? `if ${transition.guards.join(" or ")}` : ""}
            >
              {transition.event} →{" "}
              {transition.targets.map((target) => target.split(".").slice(1).join(".")).join(", ")}
            </li>
          ))}
        </ul>
      )}
      {state.states.length > 0 && (
        <div className="chart-children">
          {state.states.map((child) => (
            <StateBox key={child.id} state={child} active={active} initial={state.initial} />
          ))}
        </div>
      )}
    </div>
  );
}
