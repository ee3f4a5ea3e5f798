import { toolActorId } from "@troupe/protocol";

/**
 * Which actors belong to one run tree (docs/decisions/0027): a session's run and the
 * runs of the subagents it delegated to. A subagent publishes on its parent
 * session's subjects under its own actors (`session/sub-…`, `run/sub-…`) and
 * with run ids that repeat the parent's (`r1`), and a tool call's actor is
 * `tool/<toolActorId(owner, runId, toolCallId)>`, so ownership is found by
 * the actor, never by the ids in the payload alone.
 */
export class RunTree {
  private readonly runs = new Set<string>();
  private readonly subagents = new Set<string>();
  private readonly toolOwners = new Map<string, string | null>();

  /**
   * @param sessionId - the session whose run the tree follows.
   * @param rootRunId - its run.
   */
  constructor(
    readonly sessionId: string,
    readonly rootRunId: string,
  ) {
    this.runs.add(runKey(sessionId, rootRunId));
  }

  /** Whether `sessionId` is a subagent session of the tree. */
  isSubagent(sessionId: string): boolean {
    return this.subagents.has(sessionId);
  }

  /** Adds a subagent session (from `subagent.started`). */
  addSubagent(sessionId: string): void {
    this.subagents.add(sessionId);
  }

  /** Adds a run of a subagent session (its `run.started`). */
  addRun(sessionId: string, runId: string): void {
    this.runs.add(runKey(sessionId, runId));
  }

  /** Whether run `runId` of `sessionId` is in the tree. */
  hasRun(sessionId: string, runId: string): boolean {
    return this.runs.has(runKey(sessionId, runId));
  }

  /** Whether `sessionId` is the root session or one of its subagents. */
  hasSession(sessionId: string): boolean {
    return sessionId === this.sessionId || this.subagents.has(sessionId);
  }

  /**
   * The session owning tool call actor `tool/<actorId>` of run `runId`, call
   * `toolCallId`, when that run is in the tree.
   *
   * @returns the owner session id, or `undefined` when the call is not of the tree.
   */
  toolOwner(actorId: string, runId: string, toolCallId: string): string | undefined {
    const known = this.toolOwners.get(actorId);
    if (known !== undefined) return known ?? undefined;
    for (const session of [this.sessionId, ...this.subagents]) {
      if (this.hasRun(session, runId) && toolActorId(session, runId, toolCallId) === actorId) {
        this.toolOwners.set(actorId, session);
        return session;
      }
    }
    return undefined;
  }
}

function runKey(sessionId: string, runId: string): string {
  return `${sessionId}\u0000${runId}`;
}

/**
 * Splits an actor address `kind/id`.
 *
 * @returns `{ kind, id }` (`id` empty when there is no `/`).
 */
export function splitActor(actor: string): { readonly kind: string; readonly id: string } {
  const slash = actor.indexOf("/");
  return slash < 0
    ? { kind: actor, id: "" }
    : { kind: actor.slice(0, slash), id: actor.slice(slash + 1) };
}
