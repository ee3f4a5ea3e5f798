import { RedisKeys } from "@troupe/protocol/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const TOOLS_HOST = "test/src/fixtures/tools-host.ts";
/** Bogus approvals of each kind: to unknown sessions, and of unknown calls of a real one. */
const PER_KIND = 5_000;
const BATCH = 500;

// Issue #11: "commands that address nothing create nothing". A flood of
// approvals naming sessions that do not exist, or tool calls a session never
// had, is answered (a verdict each) and leaves Redis exactly as it was.
describe("bogus commands leave nothing behind", () => {
  let cluster: Cluster;
  const keys = new RedisKeys("troupe", 8);

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    const host = await cluster.startHost({}, { entry: TOOLS_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Messages of every shard consumer not yet delivered or not yet acked. */
  async function unfinishedInbox(): Promise<number> {
    let total = 0;
    for (let shard = 0; shard < cluster.shardCount; shard += 1) {
      const info = await cluster.jsm.consumers.info(cluster.streams.inbox, `troupe-shard-${shard}`);
      total += info.num_pending + info.num_ack_pending;
    }
    return total;
  }

  async function storedEvents(filter: string): Promise<number> {
    const info = await cluster.jsm.streams.info(cluster.streams.events, {
      subjects_filter: filter,
    });
    return Object.values(info.state.subjects ?? {}).reduce((sum, count) => sum + count, 0);
  }

  async function allKeys(): Promise<string[]> {
    return (await cluster.redis.keys("*")).sort();
  }

  /** The keys of `keys` that have no time to live (PTTL -1). */
  async function keysWithoutTtl(keys: readonly string[]): Promise<string[]> {
    const ttls = await Promise.all(keys.map(async (key) => await cluster.redis.pttl(key)));
    return keys.filter((_, index) => ttls[index] === -1);
  }

  /** Publishes JSON bodies to public session subjects, `BATCH` acked publishes at a time. */
  async function publishAll(messages: { sessionId: string; body: Record<string, unknown> }[]) {
    const encoder = new TextEncoder();
    for (let start = 0; start < messages.length; start += BATCH) {
      await Promise.all(
        messages
          .slice(start, start + BATCH)
          .map(({ sessionId, body }) =>
            cluster.js.publish(
              `troupe.session.${sessionId}.in`,
              encoder.encode(JSON.stringify(body)),
            ),
          ),
      );
    }
  }

  it("10,000 approvals to unknown sessions and unknown call ids: one verdict each, Redis key count unchanged", async () => {
    // A real session with a finished run whose one call was approved.
    const log = followSession(cluster.nats, "real-1");
    await cluster.publishToSession("real-1", {
      type: "user.message",
      agent: "gatekeeper",
      text: '/tool charge {"key":"k1"}',
    });
    const requested = await log.first("tool.approval_requested");
    await cluster.publishToSession("real-1", {
      type: "tool.approve",
      toolCallId: requested["toolCallId"],
    });
    await log.first("session.idle");
    log.stop();
    // Settled: every inbox message acked and every outbox confirmed (no dirty set).
    await waitFor(
      async () =>
        (await unfinishedInbox()) === 0 &&
        (await cluster.redis.keys("troupe:{*}:dirty")).length === 0,
      { timeoutMs: 30_000, intervalMs: 250, description: "the real session's work settled" },
    );
    const before = await allKeys();
    expect(await cluster.redis.dbsize()).toBe(before.length);
    // Keys with a time to live (the snapshot history kept for a retention
    // period) may expire while the flood is processed, however long that takes
    // on this machine; the keys without one must all stay.
    const lasting = await keysWithoutTtl(before);
    const unknownIdsBefore = await storedEvents("troupe.session.real-1.events.command.settled");

    await publishAll([
      ...Array.from({ length: PER_KIND }, (_, index) => ({
        sessionId: `nosuch-${index}`,
        body: { type: "tool.approve", toolCallId: "call-1" },
      })),
      ...Array.from({ length: PER_KIND }, (_, index) => ({
        sessionId: "real-1",
        body: { type: "tool.approve", toolCallId: `bogus-${index}` },
      })),
    ]);

    // Every command answered: the unknown sessions refuse (no run), the real
    // session's unknown calls are told so by the tool call actors they reach.
    await waitFor(
      async () =>
        (await storedEvents("troupe.session.*.events.message.rejected")) >= PER_KIND &&
        (await storedEvents("troupe.session.real-1.events.command.settled")) >=
          unknownIdsBefore + PER_KIND,
      { timeoutMs: 240_000, intervalMs: 500, description: "a verdict on every bogus approval" },
    );
    expect(await storedEvents("troupe.session.*.events.message.rejected")).toBe(PER_KIND);
    expect(await storedEvents("troupe.session.real-1.events.command.settled")).toBe(
      unknownIdsBefore + PER_KIND,
    );
    await waitFor(
      async () =>
        (await unfinishedInbox()) === 0 &&
        (await cluster.redis.keys("troupe:{*}:dirty")).length === 0,
      {
        timeoutMs: 60_000,
        intervalMs: 250,
        description: "the flood processed and its outboxes confirmed",
      },
    );

    const after = await allKeys();
    expect(after.filter((key) => !before.includes(key))).toEqual([]); // nothing created
    expect(await keysWithoutTtl(after)).toEqual(lasting); // nothing lasting removed
    expect(await cluster.redis.exists(keys.actor("session/nosuch-0"))).toBe(0);
    expect(await cluster.redis.keys("troupe:{*}:actor:session/nosuch-*")).toEqual([]);
  }, 360_000);
});
