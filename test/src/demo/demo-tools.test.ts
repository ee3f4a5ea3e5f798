import { randomUUID } from "node:crypto";
import { demoNotesKey, DEMO_OUTBOX_KEY, type DemoOutboxRecord } from "@troupe/host/internal";
import { demoAgents } from "@troupe/host";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";

let servers: TestServers | undefined;
let redis: Redis | undefined;
/** Every key of this suite lives under its own prefix (ioredis `keyPrefix`). */
const keyPrefix = `test-demo-tools-${randomUUID()}:`;
const AT_MS = Date.UTC(2026, 10, 30, 6, 4, 5);
const logged: string[] = [];

beforeAll(async () => {
  servers = await startTestServers();
  redis = new Redis(servers.redisUrl, { lazyConnect: true, keyPrefix });
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
  await servers?.stop();
});

function tools() {
  if (redis === undefined) throw new Error("beforeAll did not connect to Redis");
  const [agent] = demoAgents({
    redis,
    log: (line) => logged.push(line),
    nowMs: () => AT_MS,
    env: {},
  });
  const byName = agent?.tools ?? {};
  const tool = (name: string) => {
    const found = byName[name];
    if (found === undefined) throw new Error(`the demo agent has no tool ${name}`);
    return found;
  };
  return { saveNote: tool("save_note"), sendEmail: tool("send_email"), redis };
}

const context = (toolCallId: string, sessionId = "demo-session") => ({
  sessionId,
  runId: "run-1",
  toolCallId,
  idempotencyKey: `${sessionId}/run-1/${toolCallId}`,
  signal: new AbortController().signal,
  attempt: 1,
});

describe("demo tools against a real Redis", () => {
  it("save_note stores the note in the notes hash, and saving it again changes nothing", async () => {
    const { saveNote, redis } = tools();
    const input = saveNote.inputSchema.parse({ title: "groceries", text: "oat milk, eggs" });
    await expect(saveNote.execute(input, context("c1"))).resolves.toEqual({
      saved: "groceries",
      notes: 1,
    });
    await expect(saveNote.execute(input, context("c1"))).resolves.toEqual({
      saved: "groceries",
      notes: 1,
    });
    const other = saveNote.inputSchema.parse({ title: "wifi", text: "hunter2" });
    await expect(saveNote.execute(other, context("c2"))).resolves.toEqual({
      saved: "wifi",
      notes: 2,
    });
    expect(await redis.hgetall(demoNotesKey("demo-session"))).toEqual({
      groceries: "oat milk, eggs",
      wifi: "hunter2",
    });
  });

  it("save_note keeps each session's notes apart (issue #13)", async () => {
    const { saveNote, redis } = tools();
    const input = saveNote.inputSchema.parse({ title: "plants", text: "water them" });
    await expect(saveNote.execute(input, context("c1", "notes-a"))).resolves.toEqual({
      saved: "plants",
      notes: 1,
    });
    // A second session starts with no notes: it has 1 after its first, not 2.
    await expect(saveNote.execute(input, context("c1", "notes-b"))).resolves.toEqual({
      saved: "plants",
      notes: 1,
    });
    expect(await redis.hgetall(demoNotesKey("notes-a"))).toEqual({ plants: "water them" });
    expect(await redis.hgetall(demoNotesKey("notes-b"))).toEqual({ plants: "water them" });
  });

  it("send_email sends nothing: it logs one line and appends a record to the outbox list", async () => {
    const { sendEmail, redis } = tools();
    const input = sendEmail.inputSchema.parse({
      to: "ada@example.com",
      subject: "Launch",
      body: "about the launch on Friday",
    });
    await expect(sendEmail.execute(input, context("c3"))).resolves.toEqual({
      sent: true,
      to: "ada@example.com",
      subject: "Launch",
    });
    const entries = await redis.lrange(DEMO_OUTBOX_KEY, 0, -1);
    expect(entries.map((entry) => JSON.parse(entry) as DemoOutboxRecord)).toEqual([
      {
        to: "ada@example.com",
        subject: "Launch",
        body: "about the launch on Friday",
        idempotencyKey: "demo-session/run-1/c3",
        atMs: AT_MS,
      },
    ]);
    expect(logged).toEqual([
      '[demo] send_email: to ada@example.com, subject "Launch" (not really sent; see troupe:demo:outbox)',
    ]);
  });
});
