import type { SessionEvent, TroupeClient } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { FULL_ACCESS } from "../http/access.js";
import { createFleetIndex } from "./create-fleet-index.js";

const event = (
  sequence: number,
  sessionId: string,
  type: string,
  actor: string,
  payload: Record<string, unknown>,
): SessionEvent =>
  ({
    sequence,
    subject: `troupe.session.${sessionId}.events.${type}`,
    pending: 0,
    event: {
      v: 1,
      id: `e${sequence}`,
      type,
      payload,
      meta: { actor, seq: 1, timestampMs: sequence },
    },
  }) as unknown as SessionEvent;

/** A client whose events stream holds `stored`, then nothing more. */
function fakeClient(stored: SessionEvent[]): TroupeClient {
  const waitForAbort = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve) =>
      signal?.addEventListener("abort", () => resolve(), { once: true }),
    );
  return {
    async *allSessionEvents(options: { signal?: AbortSignal; onCaughtUp?: () => void }) {
      yield* stored;
      options.onCaughtUp?.();
      await waitForAbort(options.signal);
    },
    async *events(sessionId: string) {
      await Promise.resolve();
      yield* stored.filter((item) => item.subject.includes(`.${sessionId}.`));
    },
    storedEventCount: (sessionId: string) =>
      Promise.resolve(stored.filter((item) => item.subject.includes(`.${sessionId}.`)).length),
  } as unknown as TroupeClient;
}

describe("createFleetIndex", () => {
  it("keeps the sessions with open waits and the N most recent; a dropped session is read again from its history", async () => {
    const stored = [
      event(1, "old-wait", "run.started", "session/old-wait", { runId: "r1" }),
      event(2, "old-wait", "tool.approval_requested", "tool/t", {
        toolCallId: "c1",
        tool: "send_email",
        arguments: {},
        runId: "r1",
      }),
      event(3, "old", "session.idle", "session/old", { sessionId: "old", lastRunId: "r4" }),
      event(4, "team-a", "session.idle", "session/team-a", { sessionId: "team-a" }),
      event(5, "team-b", "run.started", "session/team-b", { runId: "r2" }),
    ];
    const fleet = createFleetIndex(fakeClient(stored), { log: () => undefined, maxSessions: 2 });
    try {
      await fleet.ready();
      const recent = await fleet.recentSessions(FULL_ACCESS, 10);
      // team-b and team-a are the two most recent; old-wait stays for its approval; old is dropped.
      expect(recent.map((summary) => summary.sessionId)).toEqual(["team-b", "team-a", "old-wait"]);
      expect(recent[0]).toMatchObject({
        state: "running",
        runInProgress: { runId: "r2", sequence: 5 },
      });
      expect(
        (await fleet.pendingApprovals(FULL_ACCESS)).map((approval) => approval.toolCallId),
      ).toEqual(["c1"]);
      expect(await fleet.pendingApprovals({ sessionPrefix: "team-" })).toEqual([]);
      expect(
        (await fleet.recentSessions({ sessionPrefix: "team-" }, 1)).map(
          (summary) => summary.sessionId,
        ),
      ).toEqual(["team-b"]);
      // Dropped from memory, still answered from its own history.
      expect(await fleet.session("old")).toMatchObject({
        sessionId: "old",
        state: "idle",
        lastRunId: "r4",
      });
      expect(await fleet.session("never")).toBeUndefined();
    } finally {
      await fleet.close();
    }
  });
});
