import { TroupeError } from "@troupe/protocol";

// Snapshots of the agent machines are stored with the version of the machines
// that wrote them (`AGENT_MACHINES_VERSION`). A host that runs a later version
// reads an older snapshot through these hooks (the runtime calls the kind's
// `migrate`), so sessions and runs in progress survive an upgrade. A version
// the hooks do not know — a newer one, met by an old host during a rolling
// deploy — throws, and the runtime then refuses the actor: its messages wait in
// the inbox (not dead-lettered) until a host of that version owns the shard
// (docs/decisions/0022).

/** A persisted xstate snapshot as the runtime stores it: plain data with a `context`. */
type PersistedSnapshot = { readonly context?: unknown } & Record<string, unknown>;

/**
 * Version of the session, run and tool call machines recorded in their
 * snapshots (the runtime's `ActorKindDefinition.version`); snapshots of earlier
 * versions are read through the `migrate…Snapshot` hooks below. A host of an
 * older version refuses a snapshot of a newer one (the hooks throw
 * `unknown_machine_version`; the runtime keeps the actor's messages waiting):
 * raise this version when a snapshot's meaning changes, and add a
 * hook step from the previous one.
 *
 * - `1`: the first release.
 * - `2`: the run's `attempt` is called `retry`; a session learns its agents'
 *   settings from the journaled `agent.resolve` effect (`resolvedAgents`,
 *   `agentResolutions`) instead of from the host at processing time.
 * - `3` (docs/decisions/0042): a run may be on a fallback model (`modelIndex`, effect ids
 *   `<runId>.m<n>.f<i>.a<try>`), reads from a `summary` entry (`summaryIndex`)
 *   and a fork's transcript base; a session may be forking. Every new field is
 *   optional, so a version 2 snapshot reads unchanged; the raise keeps a host
 *   of version 2 — which would wait for the wrong effect id or stall on a
 *   transcript role it does not know — from taking such an actor during a
 *   rolling deploy.
 * - `4` (docs/decisions/0055): a run is pinned to the agent definition of its
 *   first model call (`run.definition`) and passes it to every later call. The
 *   field is optional, so a version 3 snapshot reads unchanged (its run pins at
 *   its next call); the raise keeps a host of version 3 — which would drop the
 *   pin and answer with whatever definition it serves — from taking such a run.
 */
export const AGENT_MACHINES_VERSION = "4";

/** The versions the hooks read, oldest first; the last is {@link AGENT_MACHINES_VERSION}. */
const READABLE_VERSIONS: readonly string[] = ["1", "2", "3", AGENT_MACHINES_VERSION];

/**
 * Reads a `run/<sessionId>` snapshot of an earlier version.
 *
 * - `1` → `2`: the active run's `attempt` (the run's try of the current model
 *   call) is called `retry`. Effect ids (`<runId>.m<k>.a<n>`) are unchanged.
 *
 * @param persisted - the stored xstate snapshot.
 * @param fromVersion - the version that wrote it.
 * @returns the snapshot in the current shape.
 * @throws TroupeError `unknown_machine_version` for a version it does not know
 *   (a newer one included); the runtime then refuses the actor (its messages
 *   wait).
 */
export function migrateRunSnapshot(persisted: unknown, fromVersion: string): unknown {
  assertKnown("run", fromVersion);
  if (fromVersion !== "1") return persisted;
  return withContext(persisted, (context) => {
    const run = context["run"];
    if (typeof run !== "object" || run === null || !("attempt" in run)) return context;
    const { attempt, ...rest } = run as Record<string, unknown>;
    return { ...context, run: { ...rest, retry: attempt } };
  });
}

/**
 * Reads a `session/<sessionId>` snapshot of an earlier version.
 *
 * - `1` → `2`: the session has resolved no agent through `agent.resolve` yet
 *   (`resolvedAgents: []`, `agentResolutions: 0`). A session created under
 *   version 1 keeps the settings it adopted then; a later message naming an
 *   agent is checked with `agent.resolve` once.
 *
 * @param persisted - the stored xstate snapshot.
 * @param fromVersion - the version that wrote it.
 * @returns the snapshot in the current shape.
 * @throws TroupeError `unknown_machine_version` for a version it does not know
 *   (a newer one included); the runtime then refuses the actor (its messages
 *   wait).
 */
export function migrateSessionSnapshot(persisted: unknown, fromVersion: string): unknown {
  assertKnown("session", fromVersion);
  if (fromVersion !== "1") return persisted;
  return withContext(persisted, (context) => ({
    resolvedAgents: [],
    agentResolutions: 0,
    ...context,
  }));
}

/**
 * Reads a `tool/<toolActorId>` snapshot of an earlier version (its shape has
 * not changed).
 *
 * @param persisted - the stored xstate snapshot.
 * @param fromVersion - the version that wrote it.
 * @returns the snapshot unchanged.
 * @throws TroupeError `unknown_machine_version` for a version it does not know
 *   (a newer one included); the runtime then refuses the actor (its messages
 *   wait).
 */
export function migrateToolCallSnapshot(persisted: unknown, fromVersion: string): unknown {
  assertKnown("tool", fromVersion);
  return persisted;
}

function assertKnown(kind: string, fromVersion: string): void {
  if (READABLE_VERSIONS.includes(fromVersion)) return;
  throw new TroupeError(
    "unknown_machine_version",
    `a ${kind} snapshot of agent machine version ${fromVersion} cannot be read; ` +
      `this host reads versions ${READABLE_VERSIONS.join(", ")}`,
  );
}

function withContext(
  persisted: unknown,
  change: (context: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  const snapshot = persisted as PersistedSnapshot;
  if (typeof snapshot.context !== "object" || snapshot.context === null) return persisted;
  return { ...snapshot, context: change(snapshot.context as Record<string, unknown>) };
}
