import { useCallback, useState } from "react";
import { api } from "./api.js";
import { ErrorLine, Json } from "./small-views.js";
import { ChatPanel } from "./chat-panel.js";
import { Statechart } from "./statechart.js";
import { Timeline } from "./timeline.js";
import type {
  MachineChart,
  SessionActor,
  SessionActors,
  SessionEventEnvelope,
} from "./gateway-shapes.js";
import { usePoll } from "./use-poll.js";

let machinesOnce: Promise<{ machines: MachineChart[] }> | undefined;

/** The machine definitions, fetched once per page load (they change only with a release). */
function machines(): Promise<{ machines: MachineChart[] }> {
  machinesOnce ??= api<{ machines: MachineChart[] }>("/v1/console/machines").catch(
    (error: unknown) => {
      machinesOnce = undefined;
      throw error;
    },
  );
  return machinesOnce;
}

/** One session: the chat, the live statechart of each of its actors, the event timeline. */
export function SessionPage({ sessionId }: { sessionId: string }) {
  const charts = usePoll(machines, 60_000);
  const actors = usePoll(
    () =>
      api<SessionActors>(`/v1/console/sessions/${encodeURIComponent(sessionId)}/actors`).catch(
        (error: unknown) => {
          // A session without events yet has no actors.
          if ((error as { code?: string }).code === "session_not_found") {
            return { sessionId, actors: [], truncated: false } satisfies SessionActors;
          }
          throw error;
        },
      ),
    1000,
    sessionId,
  );
  const [selected, setSelected] = useState<string>();
  // Approvals settled anywhere (the inbox, another tab, the CLI), by tool call id.
  const [settled, setSettled] = useState<Readonly<Record<string, string>>>({});
  const onEvent = useCallback(
    (event: SessionEventEnvelope) => {
      actors.refresh();
      const { toolCallId, decision } = event.payload;
      if (event.type === "tool.approval_settled" && typeof toolCallId === "string") {
        setSettled((current) => ({ ...current, [toolCallId]: String(decision) }));
      }
    },
    [actors.refresh],
  );
  return (
    <section className="session">
      <h1>
        Session <code data-testid="session-id">{sessionId}</code>
      </h1>
      <div className="columns">
        <div className="column">
          <h2>Chat</h2>
          <ChatPanel sessionId={sessionId} settled={settled} />
          <h2>Events</h2>
          <Timeline sessionId={sessionId} onEvent={onEvent} />
        </div>
        <div className="column">
          <h2>Actors</h2>
          <ErrorLine error={actors.error ?? charts.error} />
          {actors.data?.actors.length === 0 && (
            <p className="muted">No actor yet: send a message.</p>
          )}
          <div data-testid="actors">
            {(actors.data?.actors ?? []).map((actor) => (
              <ActorView
                key={actor.address}
                actor={actor}
                chart={charts.data?.machines.find((chart) => chart.kind === actor.machine)}
                selected={selected === actor.address}
                onSelect={() => setSelected(selected === actor.address ? undefined : actor.address)}
              />
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}

function ActorView({
  actor,
  chart,
  selected,
  onSelect,
}: {
  actor: SessionActor;
  chart: MachineChart | undefined;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <div
      className="actor card"
      data-testid="actor"
      data-address={actor.address}
      data-role={actor.role}
    >
      <div className="row spread">
        <div>
          <span className={`pill role-${actor.role}`}>{actor.role}</span>{" "}
          <code>{actor.address}</code>
          {actor.label !== undefined && <span className="muted"> {actor.label}</span>}
        </div>
        <button onClick={onSelect}>{selected ? "Hide" : "Snapshots"}</button>
      </div>
      <div className="muted small">
        {actor.exists
          ? `generation ${actor.generation ?? "?"} · ${actor.status ?? ""} · state ${JSON.stringify(actor.stateValue)}`
          : "no snapshot yet"}{" "}
        · last event {actor.lastEventType}
      </div>
      {chart !== undefined && <Statechart chart={chart} active={actor.activeStates} />}
      {selected && <Inspection address={actor.address} />}
    </div>
  );
}

interface Generation {
  generation: number;
  latest: boolean;
  machineVersion?: string;
  stateValue: unknown;
  status?: string;
  eventSeq: number;
  inboxSeq: number;
  effects: unknown[];
  timers: unknown[];
  outboxItems: number;
}

/** The agent definition a run is pinned to (docs/decisions/0055), as `troupe inspect` reports it. */
interface PinnedDefinition {
  agent?: string;
  hash: string;
  version?: string;
  migratedFrom?: { hash: string; version?: string };
}

function describeDefinition(definition: PinnedDefinition): string {
  const one = (pin: { hash: string; version?: string }) =>
    `${pin.version === undefined ? "no version" : `version ${pin.version}`} (sha256 ${pin.hash.slice(0, 12)})`;
  const migrated =
    definition.migratedFrom === undefined ? "" : `, migrated from ${one(definition.migratedFrom)}`;
  return `${definition.agent ?? "the default agent"} ${one(definition)}${migrated}`;
}

/** Snapshot generations of one actor (GET /v1/console/actors/:kind/:id) and its replay verdict. */
function Inspection({ address }: { address: string }) {
  const inspection = usePoll(
    () =>
      api<{
        generations?: Generation[];
        lease?: unknown;
        dirty?: boolean;
        definition?: PinnedDefinition;
      }>(`/v1/console/actors/${address}`),
    3000,
    address,
  );
  const [verdict, setVerdict] = useState<unknown>();
  const [failure, setFailure] = useState<Error>();
  const replay = async () => {
    try {
      setVerdict(await api(`/v1/console/actors/${address}/replay`, { method: "POST" }));
      setFailure(undefined);
    } catch (error) {
      setFailure(error as Error);
    }
  };
  return (
    <div className="inspection" data-testid="inspection">
      <ErrorLine error={inspection.error ?? failure} />
      {inspection.data?.definition !== undefined && (
        <div className="muted small" data-testid="definition">
          Agent definition: {describeDefinition(inspection.data.definition)}
        </div>
      )}
      <table>
        <thead>
          <tr>
            <th>Generation</th>
            <th>State</th>
            <th>Status</th>
            <th>Event seq</th>
            <th>Inbox seq</th>
            <th>Effects</th>
            <th>Timers</th>
            <th>Outbox</th>
          </tr>
        </thead>
        <tbody>
          {(inspection.data?.generations ?? []).map((generation) => (
            <tr key={generation.generation} className={generation.latest ? "latest" : ""}>
              <td>{generation.generation}</td>
              <td>
                <code>{JSON.stringify(generation.stateValue)}</code>
              </td>
              <td>{generation.status ?? ""}</td>
              <td>{generation.eventSeq}</td>
              <td>{generation.inboxSeq}</td>
              <td>{generation.effects.length}</td>
              <td>{generation.timers.length}</td>
              <td>{generation.outboxItems}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button onClick={() => void replay()} data-testid="replay">
          Replay journal
        </button>
        {verdict !== undefined && (
          <span
            className={(verdict as { reproduces?: boolean }).reproduces === true ? "ok" : "error"}
          >
            {(verdict as { reproduces?: boolean }).reproduces === true
              ? "reproduces the snapshot"
              : "does not reproduce"}
          </span>
        )}
      </div>
      {verdict !== undefined && <Json value={verdict} />}
    </div>
  );
}
