/**
 * Issue #31: a schedule's catch-up after long downtime does bounded work and
 * fires once. A per-second schedule in a non-UTC zone (Asia/Kolkata) runs on
 * one host; the host stops; a new host starts three hours of clock time later
 * — its `simulatedStreamTimeOffsetMs` makes its machines (stream time) and its
 * timer polls see 3 h passed, which is what a real 3 h outage presents to the
 * schedule actor — while 20 sessions stream answers on it. The schedule must
 * fire exactly one catch-up (10,800 ticks missed, counted up to the bound and
 * folded into it), then go on ticking every second, and the new host must
 * lose no lease.
 */
import { TroupeClient } from "@troupe/client";
import { RedisLeaseStore } from "@troupe/runtime/internal";
import { RedisKeys } from "@troupe/protocol/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStoredEvents } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
const SHARDS = 8;
const THREE_HOURS_MS = 3 * 60 * 60 * 1000;
const STREAMING_SESSIONS = 20;
const HOST_OPTIONS = { entry: AGENT_HOST, readyTimeoutMs: 90_000 };

interface Fired {
  readonly tickMs: number;
  readonly firedAtMs: number;
  readonly missedTicks: number;
  readonly catchUp: boolean;
}

describe("a per-second schedule after 3 hours of downtime (issue #31)", () => {
  let cluster: Cluster;
  let client: TroupeClient;

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: SHARDS });
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl, prefix: "troupe" });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  const firings = async (scheduleId: string): Promise<Fired[]> =>
    (
      await readStoredEvents(
        cluster.js,
        cluster.streams.events,
        `troupe.schedule.${scheduleId}.events.schedule.fired`,
      )
    ).map((event) => event.payload as Fired);

  it("restarted under load: exactly one catch-up firing, then a tick a second, 0 leases lost", async () => {
    const scheduleId = "downtime-kolkata";
    const first = await cluster.startHost({}, HOST_OPTIONS);
    await cluster.waitForOwners([first.hostId], 30_000);
    await client.schedules.create({
      scheduleId,
      sessionId: "downtime-session",
      text: "Tick.",
      cron: "* * * * * *",
      timezone: "Asia/Kolkata",
      catchUp: "once",
    });
    await waitFor(async () => (await firings(scheduleId)).length >= 2, {
      timeoutMs: 30_000,
      description: "the schedule ticks before the downtime",
    });
    // The host stops (drains) and no host runs: the schedule's next tick waits as a timer.
    await first.stop();
    expect(await first.exited).toEqual({ code: 0, signal: null });
    const before = await firings(scheduleId);
    expect(before.every((fired) => !fired.catchUp)).toBe(true);

    // Three hours later, a new host starts while 20 sessions stream answers.
    const second = await cluster.startHost(
      { simulatedStreamTimeOffsetMs: THREE_HOURS_MS },
      HOST_OPTIONS,
    );
    const sessions = Array.from({ length: STREAMING_SESSIONS }, (_, index) => `load-${index}`);
    const turns = sessions.map((sessionId) =>
      client.sendAndWait(sessionId, "/slow 20", { timeoutMs: 120_000 }),
    );
    await cluster.waitForOwners([second.hostId], 30_000);
    const leases = new RedisLeaseStore(cluster.redis, new RedisKeys("troupe"));
    const tokens = async () => (await leases.holders(SHARDS)).map((holder) => holder.token);
    const held = await tokens();

    // The catch-up, then two ordinary ticks on the new clock.
    await waitFor(async () => (await firings(scheduleId)).length >= before.length + 3, {
      timeoutMs: 60_000,
      description: "the catch-up and two ticks after the restart",
    });
    const outcomes = await Promise.all(turns);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(sessions.map(() => "completed"));

    const after = (await firings(scheduleId)).slice(before.length);
    const [catchUp] = after;
    console.log(`the firing after the restart: ${JSON.stringify(catchUp)}`);
    // The first firing after the restart is the catch-up: its tick is the
    // latest due on the new clock, about 3 h after the last tick before, and it
    // folds the missed ticks, counted up to the bound (100 counted, 99 folded)
    // instead of all 10,800. That latest tick is a second old, within the
    // misfire threshold, so the firing is not late (`catchUp: false`).
    const lastBefore = before.at(-1)!.tickMs;
    expect(catchUp!.tickMs - lastBefore).toBeGreaterThanOrEqual(THREE_HOURS_MS);
    expect(catchUp!.missedTicks).toBe(99);
    expect(catchUp!.firedAtMs - catchUp!.tickMs).toBeLessThan(60_000);
    // Exactly one firing spans the downtime.
    const ticks = [lastBefore, ...after.map((fired) => fired.tickMs)];
    const gaps = ticks.slice(1).map((tick, index) => tick - ticks[index]!);
    expect(gaps.filter((gap) => gap >= THREE_HOURS_MS)).toHaveLength(1);
    // Then ordinary ticks, none late: each a second after the one before, or
    // (a firing delayed by the load) the seconds it folded in, counted.
    const ordinary = after.slice(1);
    expect(ordinary.length).toBeGreaterThanOrEqual(2);
    for (const [index, fired] of ordinary.entries()) {
      expect(fired.catchUp).toBe(false);
      const previous = index === 0 ? catchUp! : ordinary[index - 1]!;
      expect(fired.tickMs - previous.tickMs).toBe((fired.missedTicks + 1) * 1000);
    }
    // 0 leases lost: every shard still held under the fencing token it got at the restart.
    expect(held.every((token) => token !== undefined)).toBe(true);
    expect(await tokens()).toEqual(held);
    await client.schedules.cancel(scheduleId);
  }, 240_000);
});
