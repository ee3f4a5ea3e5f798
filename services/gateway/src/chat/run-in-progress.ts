import type { SessionEvent, TroupeClient } from "@troupe/client";

/** A run of the session that has started and not ended. Shape: `{ runId, sequence }` (of its `run.started`). */
export interface RunInProgress {
  readonly runId: string;
  readonly sequence: number;
}

const RUN_ENDS = ["run.completed", "run.failed", "run.cancelled"] as const;

/**
 * The session's own run in progress, if any (resume): its latest
 * `run.started` of the session actor, unless a later end event of that run
 * exists. Reads a few single events (`TroupeClient.lastEvent`); only when the
 * latest `run.started` is a subagent's (subagents publish on the parent's
 * subjects) does it read the session's events from sequence 1 to find the
 * session's own latest one.
 *
 * @param client - the deployment's client.
 * @param sessionId - the session.
 * @returns the run, or `undefined` when none is in progress.
 */
export async function findRunInProgress(
  client: TroupeClient,
  sessionId: string,
): Promise<RunInProgress | undefined> {
  const sessionActor = `session/${sessionId}`;
  let started = await client.lastEvent(sessionId, "run.started");
  if (started === undefined) return undefined;
  if (started.event.meta.actor !== sessionActor) {
    started = await scanLatestStart(client, sessionId, started.sequence);
    if (started === undefined) return undefined;
  }
  if (started.event.type !== "run.started") return undefined;
  const runId = started.event.payload.runId;
  const runActor = `run/${sessionId}`;
  for (const type of RUN_ENDS) {
    const end = await client.lastEvent(sessionId, type);
    if (
      end !== undefined &&
      end.sequence > started.sequence &&
      end.event.meta.actor === runActor &&
      (end.event.payload as { runId?: unknown }).runId === runId
    ) {
      return undefined;
    }
  }
  return { runId, sequence: started.sequence };
}

async function scanLatestStart(
  client: TroupeClient,
  sessionId: string,
  upTo: number,
): Promise<SessionEvent | undefined> {
  let latest: SessionEvent | undefined;
  const controller = new AbortController();
  for await (const sessionEvent of client.events(sessionId, {
    fromSequence: 1,
    signal: controller.signal,
  })) {
    if (
      sessionEvent.event.type === "run.started" &&
      sessionEvent.event.meta.actor === `session/${sessionId}`
    ) {
      latest = sessionEvent;
    }
    if (sessionEvent.deltaSequence === undefined && sessionEvent.sequence >= upTo) break;
  }
  controller.abort();
  return latest;
}
