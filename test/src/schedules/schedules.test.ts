import { TroupeClient, ScheduleRejectedError } from "@troupe/client";
import { parseAddress, shardOf, type EventEnvelope } from "@troupe/protocol";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import type { HostProcess } from "../support/host-process.js";
import { readStoredEvents } from "../support/read-stream.js";
import { runTroupe } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

// Schedules (issue #19): a `schedule/<id>` actor sends `user.message`s to a
// session at cron ticks or once; docs/capabilities/schedules.md, docs/decisions/0044.

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
const HOST_SETTINGS = { leaseTtlMs: 1500, timerPollIntervalMs: 50 };
/** A host process starting under a loaded CI machine may take a while, in ms. */
const HOST_OPTIONS = { entry: AGENT_HOST, readyTimeoutMs: 90_000 };

describe("schedules", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  let hosts: HostProcess[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8, hostSettings: HOST_SETTINGS });
    hosts = [await cluster.startHost({}, HOST_OPTIONS)];
    hosts.push(await cluster.startHost({}, HOST_OPTIONS));
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      20_000,
    );
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl, prefix: "troupe" });
  }, 240_000);
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  /** Stored (durable) events of one subject filter, decoded. */
  const stored = (filter: string): Promise<EventEnvelope[]> =>
    readStoredEvents(cluster.js, cluster.streams.events, filter);
  const scheduleEvents = (scheduleId: string, type = ">") =>
    stored(`troupe.schedule.${scheduleId}.events.${type}`);
  const sessionEvents = (sessionId: string, type: string) =>
    stored(`troupe.session.${sessionId}.events.${type}`);

  it("a one-shot firing when its owner is SIGKILLed at the tick and two hosts race: one message admitted, one run", async () => {
    const owners = await cluster.owners();
    const owner = hosts[0]!;
    const survivor = hosts[1]!;
    // A schedule whose actor lives on the host that will die.
    const scheduleId = Array.from({ length: 200 }, (_, index) => `race-${index}`).find(
      (id) => owners[shardOf(parseAddress(`schedule/${id}`), cluster.shardCount)] === owner.hostId,
    )!;
    const atMs = Date.now() + 4_000;
    const created = await client.schedules.create({
      scheduleId,
      sessionId: "race-session",
      text: "Run the nightly check.",
      at: atMs,
    });
    expect(created.nextTickMs).toBe(atMs);

    await sleep(Math.max(0, atMs - Date.now()));
    owner.signal("SIGKILL");
    await waitFor(async () => (await sessionEvents("race-session", "run.completed")).length >= 1, {
      timeoutMs: 20_000,
      description: "the scheduled message ran",
    });
    await cluster.waitForOwners([survivor.hostId], 15_000);
    // Nothing more can reach the schedule or the session (what the killed host
    // left unacknowledged is redelivered within the ack wait): a second firing
    // or a second admitted message would show now.
    await cluster.waitForSettled(`schedule/${scheduleId}`, 60_000);
    await cluster.waitForSettled("session/race-session", 60_000, { timers: false });

    const fired = await scheduleEvents(scheduleId, "schedule.fired");
    expect(fired.map((event) => event.payload)).toEqual([
      expect.objectContaining({
        tickMs: atMs,
        messageId: `sched-${scheduleId}-${atMs}`,
        catchUp: false,
      }),
    ]);
    expect((await scheduleEvents(scheduleId, "schedule.completed")).length).toBe(1);
    const accepted = await sessionEvents("race-session", "message.accepted");
    expect(
      accepted.map((event) => (event.payload as { clientMessageId?: string }).clientMessageId),
    ).toEqual([`sched-${scheduleId}-${atMs}`]);
    expect(await sessionEvents("race-session", "run.started")).toHaveLength(1);
    const stored = await cluster.snapshots.load(`schedule/${scheduleId}`);
    expect(stored?.record.timers).toEqual([]);
    // The killed host is replaced for the tests that follow.
    hosts = [survivor, await cluster.startHost({}, HOST_OPTIONS)];
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      20_000,
    );
  }, 180_000);

  it("a bad cron pattern or time zone is refused with a typed error and creates nothing", async () => {
    const refused = async (input: { cron: string; timezone?: string }) =>
      client.schedules
        .create({ scheduleId: "bad-1", sessionId: "s-bad", text: "x", ...input })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    const badCron = await refused({ cron: "61 * * * *" });
    expect(ScheduleRejectedError.isInstance(badCron)).toBe(true);
    expect((badCron as ScheduleRejectedError).rejectionCode).toBe("invalid_cron");
    const badZone = await refused({ cron: "0 9 * * *", timezone: "Mars/Olympus_Mons" });
    expect((badZone as ScheduleRejectedError).rejectionCode).toBe("invalid_timezone");
    expect(await cluster.snapshots.load("schedule/bad-1")).toBeUndefined();
    expect((await client.schedules.list()).map((entry) => entry.scheduleId)).not.toContain("bad-1");
    const cancelUnknown = await client.schedules.cancel("never-made").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((cancelUnknown as ScheduleRejectedError).rejectionCode).toBe("not_found");
  }, 30_000);

  it("reads the cron pattern in its time zone, lists schedules, and cancel stops the ticks", async () => {
    // Every hour at minute 0 in Kolkata (UTC+05:30) is minute 30 of the hour in UTC.
    const kolkata = await client.schedules.create({
      scheduleId: "tz-kolkata",
      sessionId: "tz-session",
      text: "Hourly in India.",
      cron: "0 * * * *",
      timezone: "Asia/Kolkata",
    });
    expect(kolkata.nextTickMs % 3_600_000).toBe(30 * 60_000);
    expect(kolkata.nextTickMs).toBeGreaterThan(Date.now());
    expect(kolkata.nextTickMs - Date.now()).toBeLessThanOrEqual(3_600_000);

    const everySecond = await client.schedules.create({
      scheduleId: "every-second",
      sessionId: "tick-session",
      text: "Tick.",
      cron: "* * * * * *",
    });
    await waitFor(
      async () => (await scheduleEvents("every-second", "schedule.fired")).length >= 2,
      {
        timeoutMs: 10_000,
        description: "two ticks fired",
      },
    );
    await waitFor(
      async () => {
        const listed = await client.schedules.list({ sessionId: "tz-session" });
        return listed.length === 1 && listed[0]!.timezone === "Asia/Kolkata";
      },
      { timeoutMs: 5_000, description: "the listing shows the Kolkata schedule" },
    );
    const cancelled = await client.schedules.cancel("every-second", { reason: "enough" });
    expect(cancelled).toMatchObject({ scheduleId: "every-second", reason: "enough" });
    const firedAtCancel = (await scheduleEvents("every-second", "schedule.fired")).length;
    // The cancel removed the timer; a tick already in the inbox is processed
    // (and refused) before the schedule counts as settled: a firing after the
    // cancel would show now.
    await cluster.waitForSettled("schedule/every-second", 30_000);
    const fired = await scheduleEvents("every-second", "schedule.fired");
    expect(fired).toHaveLength(firedAtCancel);
    const ticks = fired.map((event) => (event.payload as { tickMs: number }).tickMs);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.every((tick) => tick % 1000 === 0)).toBe(true);
    expect(everySecond.nextTickMs).toBe(ticks[0]);

    await waitFor(
      async () =>
        (await client.schedules.list()).find((entry) => entry.scheduleId === "every-second")
          ?.status === "cancelled",
      { timeoutMs: 5_000, description: "the listing shows the cancel" },
    );
    const listed = await client.schedules.list();
    expect(listed.find((entry) => entry.scheduleId === "tz-kolkata")).toMatchObject({
      status: "active",
      cron: "0 * * * *",
      timezone: "Asia/Kolkata",
      nextTickMs: kolkata.nextTickMs,
      firedCount: 0,
    });
    expect(listed.find((entry) => entry.scheduleId === "every-second")?.firedCount).toBe(
      firedAtCancel,
    );
    const again = await client.schedules.cancel("every-second").catch((error: unknown) => error);
    expect((again as ScheduleRejectedError).rejectionCode).toBe("already_settled");
    await client.schedules.cancel("tz-kolkata");
  }, 40_000);

  it("after downtime past several ticks, catch-up skip sends nothing for them and once sends one message", async () => {
    const common = { cron: "* * * * * *", misfireThresholdMs: 400, text: "Catch up." };
    await client.schedules.create({
      ...common,
      scheduleId: "cu-skip",
      sessionId: "cu-skip-s",
      catchUp: "skip",
    });
    await client.schedules.create({
      ...common,
      scheduleId: "cu-once",
      sessionId: "cu-once-s",
      catchUp: "once",
    });
    await waitFor(
      async () =>
        (await scheduleEvents("cu-skip", "schedule.fired")).length >= 1 &&
        (await scheduleEvents("cu-once", "schedule.fired")).length >= 1,
      { timeoutMs: 10_000, description: "both fired once on time" },
    );
    // Every host stops (gracefully: leases released), the deployment is down 3.5 s.
    await Promise.all(hosts.map((host) => host.stop()));
    const downFromMs = Date.now();
    await sleep(3_500);
    const upAtMs = Date.now();
    hosts = [await cluster.startHost({}, HOST_OPTIONS)];
    await waitFor(
      async () =>
        (await scheduleEvents("cu-skip", "schedule.skipped")).length >= 1 &&
        (await scheduleEvents("cu-once", "schedule.fired")).some((event) =>
          standsForMissedTicks(event.payload as { catchUp: boolean; missedTicks: number }),
        ),
      { timeoutMs: 20_000, description: "the catch-up decisions" },
    );
    await client.schedules.cancel("cu-skip");
    await client.schedules.cancel("cu-once");

    const skipped = (await scheduleEvents("cu-skip", "schedule.skipped")).map(
      (event) => event.payload as { missedTicks: number; firstMissedTickMs: number },
    );
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.missedTicks).toBeGreaterThanOrEqual(3);
    // No message was sent for a tick of the downtime.
    const skipTicks = (await scheduleEvents("cu-skip", "schedule.fired")).map(
      (event) => (event.payload as { tickMs: number }).tickMs,
    );
    expect(skipTicks.filter((tick) => tick > downFromMs + 1_000 && tick < upAtMs - 1_000)).toEqual(
      [],
    );
    const onceFired = (await scheduleEvents("cu-once", "schedule.fired")).map(
      (event) => event.payload as { tickMs: number; catchUp: boolean; missedTicks: number },
    );
    // The firing after the outage stands for the missed ticks: late itself
    // (`catchUp`), or on time with the missed ones folded in (`missedTicks`).
    const catchUps = onceFired.filter(standsForMissedTicks);
    expect(catchUps).toHaveLength(1);
    expect(catchUps[0]!.missedTicks).toBeGreaterThanOrEqual(2);
    expect(await scheduleEvents("cu-once", "schedule.skipped")).toEqual([]);
    // One message per firing reached the session, each admitted once.
    await waitFor(
      async () =>
        (await sessionEvents("cu-once-s", "message.accepted")).length === onceFired.length,
      { timeoutMs: 10_000, description: "every firing admitted" },
    );
    const admitted = (await sessionEvents("cu-once-s", "message.accepted")).map(
      (event) => (event.payload as { clientMessageId?: string }).clientMessageId,
    );
    expect(new Set(admitted).size).toBe(onceFired.length);
  }, 180_000);

  it("troupe schedule at / add / list / cancel, and a bad cron refused with exit code 1 before sending", async () => {
    const home = await mkdtemp(join(tmpdir(), "troupe-schedule-cli-"));
    try {
      const troupe = (args: string[]) =>
        runTroupe(["schedule", ...args, "--nats", cluster.servers.natsUrl], {
          home,
          timeoutMs: 60_000,
        });
      // Far enough ahead for the CLI to start (tsx) on a loaded machine.
      const at = new Date(Date.now() + 15_000).toISOString();
      const oneShot = await troupe([
        "at",
        "cli-session",
        at,
        "Remind",
        "me",
        "--id",
        "cli-once",
        "--json",
      ]);
      expect(oneShot.code, oneShot.stderr).toBe(0);
      expect(JSON.parse(oneShot.stdout)).toMatchObject({
        ok: true,
        scheduleId: "cli-once",
        text: "Remind me",
        nextTickMs: Date.parse(at),
      });
      const cron = await troupe([
        "add",
        "cli-session",
        "30 8 * * 1-5",
        "Standup",
        "--tz",
        "Europe/Paris",
        "--catch-up",
        "once",
        "--id",
        "cli-cron",
      ]);
      expect(cron.code, cron.stderr).toBe(0);
      expect(cron.stdout).toContain("schedule cli-cron → cli-session");

      const bad = await troupe(["add", "cli-session", "99 * * * *", "x", "--id", "cli-bad"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("invalid_cron");
      expect(await cluster.snapshots.load("schedule/cli-bad")).toBeUndefined();

      await waitFor(
        async () =>
          (await client.schedules.list({ sessionId: "cli-session" })).find(
            (entry) => entry.scheduleId === "cli-once",
          )?.status === "completed",
        { timeoutMs: 40_000, description: "the one-shot fired and completed" },
      );
      const listed = await troupe(["list", "--session", "cli-session", "--json"]);
      const entries = JSON.parse(listed.stdout) as {
        scheduleId: string;
        status: string;
        firedCount: number;
        timezone?: string;
      }[];
      expect(entries.map((entry) => [entry.scheduleId, entry.status, entry.firedCount])).toEqual([
        ["cli-cron", "active", 0],
        ["cli-once", "completed", 1],
      ]);
      expect(entries[0]!.timezone).toBe("Europe/Paris");
      const text = await troupe(["list", "--session", "cli-session"]);
      expect(text.stdout).toContain('cli-cron  active  "30 8 * * 1-5" Europe/Paris');

      const cancelled = await troupe(["cancel", "cli-cron", "--reason", "holidays"]);
      expect(cancelled.code).toBe(0);
      const again = await troupe(["cancel", "cli-cron"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("already_settled");
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A `schedule.fired` payload that stands for ticks missed while no host ran. */
function standsForMissedTicks(payload: { catchUp: boolean; missedTicks: number }): boolean {
  return payload.catchUp || payload.missedTicks > 0;
}
