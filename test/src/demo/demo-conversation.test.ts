import { demoNotesKey, DEMO_OUTBOX_KEY } from "@troupe/host/internal";
import { EventRenderer } from "@troupe/cli/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession, type SessionEventLog } from "../support/session-events.js";

const DEMO_HOST = "test/src/demo/demo-host.ts";
const RUN_TIMEOUT_MS = 20_000;

describe("a first conversation with the demo agent", () => {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    // An empty TROUPE_MODEL: the scripted demo, whatever the environment says.
    const host = await cluster.startHost({}, { entry: DEMO_HOST, env: { TROUPE_MODEL: "" } });
    await cluster.waitForOwners([host.hostId], 20_000);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  function running(): Cluster {
    if (cluster === undefined) throw new Error("beforeAll did not start the cluster");
    return cluster;
  }

  /** Sends a user message to the demo agent. */
  async function ask(sessionId: string, text: string) {
    await running().publishToSession(sessionId, { type: "user.message", agent: "demo", text });
  }

  /** Waits for the answer of run `n` (1-based) of the session. */
  async function answer(log: SessionEventLog, n: number): Promise<string> {
    await log.until(
      (events) => events.filter((event) => event.type === "run.completed").length >= n,
      RUN_TIMEOUT_MS,
      `run.completed #${n}`,
    );
    return String(log.payloads("run.completed")[n - 1]?.["text"]);
  }

  it("reads the clock, saves a note, asks before an email and respects a denial", async () => {
    const sessionId = "demo-1";
    const log = followSession(running().nats, sessionId);
    try {
      await ask(sessionId, "what time is it in Tokyo?");
      expect(await answer(log, 1)).toMatch(/^It is \d{2}:\d{2} in Asia\/Tokyo\.$/);

      await ask(sessionId, "note buy oat milk");
      expect(await answer(log, 2)).toBe('Saved your note "buy oat milk". You have 1 note.');
      expect(await running().redis.hgetall(demoNotesKey(sessionId))).toEqual({
        "buy oat milk": "buy oat milk",
      });

      await ask(sessionId, "email ada@example.com about lunch");
      const denied = await log.first("tool.approval_requested", undefined, RUN_TIMEOUT_MS);
      expect(denied).toMatchObject({
        tool: "send_email",
        arguments: { to: "ada@example.com", subject: "Lunch", body: "about lunch" },
      });
      await running().publishToSession(sessionId, {
        type: "tool.deny",
        toolCallId: denied["toolCallId"],
        reason: "not today",
      });
      expect(await answer(log, 3)).toBe("I did not send the email: you denied it (not today).");
      expect(await running().redis.llen(DEMO_OUTBOX_KEY)).toBe(0);

      await ask(sessionId, "send an email to ada@example.com saying see you at noon");
      await log.until(
        (events) => events.filter((event) => event.type === "tool.approval_requested").length >= 2,
        RUN_TIMEOUT_MS,
        "a second tool.approval_requested",
      );
      const approved = log.payloads("tool.approval_requested")[1] ?? {};
      await running().publishToSession(sessionId, {
        type: "tool.approve",
        toolCallId: approved["toolCallId"],
      });
      expect(await answer(log, 4)).toBe("Sent the email to ada@example.com.");
      const outbox = await running().redis.lrange(DEMO_OUTBOX_KEY, 0, -1);
      expect(outbox.map((entry) => JSON.parse(entry) as unknown)).toEqual([
        expect.objectContaining({
          to: "ada@example.com",
          subject: "See you at noon",
          body: "see you at noon",
        }),
      ]);

      // The renderer turns the real stream into the lines `troupe chat` shows.
      const renderer = new EventRenderer({ color: false, sessionId });
      const rendered = log.events
        .map((event, index) => renderer.render({ sequence: index + 1, subject: "", event }))
        .join("");
      if (process.env.TROUPE_TEST_PRINT_RENDERED === "1") {
        process.stdout.write(`${rendered}\n${log.types().join(" ")}\n`);
      }
      expect(rendered.match(/It is \d{2}:\d{2} in Asia\/Tokyo\./g)).toHaveLength(1);
      expect(rendered).toContain("⚙ clock");
      expect(rendered).toContain(`troupe approve ${sessionId} ${String(denied["toolCallId"])}`);
      expect(rendered).toContain("I did not send the email: you denied it (not today).\n");
      expect(rendered).toContain("✓ send_email approved");
      expect(rendered).toContain("Sent the email to ada@example.com.\n");
    } finally {
      log.stop();
    }
  });

  it("each session has its own notes: a second session's first note is its only one (issue #13)", async () => {
    const first = followSession(running().nats, "notes-first");
    const second = followSession(running().nats, "notes-second");
    try {
      await ask("notes-first", "note buy oat milk");
      expect(await answer(first, 1)).toBe('Saved your note "buy oat milk". You have 1 note.');
      await ask("notes-first", "note call mum");
      expect(await answer(first, 2)).toBe('Saved your note "call mum". You have 2 notes.');
      await ask("notes-second", "note buy oat milk");
      expect(await answer(second, 1)).toBe('Saved your note "buy oat milk". You have 1 note.');
      expect(Object.keys(await running().redis.hgetall(demoNotesKey("notes-second")))).toEqual([
        "buy oat milk",
      ]);
    } finally {
      first.stop();
      second.stop();
    }
  });
});
