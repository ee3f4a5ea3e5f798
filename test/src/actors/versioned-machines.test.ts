import { setTimeout as sleep } from "node:timers/promises";
import { clusterStatus } from "@troupe/admin";
import { formatClusterStatus } from "@troupe/admin/internal";
import { ActorHost, type ActorKindDefinition, type VersionRefusalAlert } from "@troupe/runtime";
import { shardConsumerName } from "@troupe/runtime/internal";
import { ALERT_SUBJECTS, shardOf } from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { describe, expect, it } from "vitest";
import { ledgerLines, ledgerV1, ledgerV2, type LedgerLine } from "../fixtures/ledger-kinds.js";
import { capturingLogger, type CapturedLogLine } from "../support/capturing-logger.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

// Versioned machines (issue #14, docs/decisions/0022): a host never
// misinterprets a snapshot of a machine version it cannot read, and a rolling
// deploy with two host versions side by side corrupts no actor.

interface LedgerHost {
  readonly host: ActorHost;
  readonly lines: CapturedLogLine[];
}

async function startLedgerHost(cluster: Cluster, kind: ActorKindDefinition): Promise<LedgerHost> {
  const { logger, lines } = capturingLogger();
  const host = await ActorHost.start({
    nats: cluster.servers.natsUrl,
    redis: cluster.servers.redisUrl,
    kinds: [kind],
    settings: { shardCount: cluster.shardCount },
    logger,
  });
  return { host, lines };
}

async function lines(cluster: Cluster, actor: string): Promise<LedgerLine[]> {
  return ledgerLines(await cluster.context(actor));
}

/** Collects every message published on `subject` (core NATS) until the returned stop is called. */
function collect(cluster: Cluster, subject: string): { messages: string[]; stop: () => void } {
  const messages: string[] = [];
  const subscription = cluster.nats.subscribe(subject, {
    callback: (error, message) => {
      if (error === null) messages.push(`${message.subject} ${message.string()}`);
    },
  });
  return { messages, stop: () => subscription.unsubscribe() };
}

async function storedDeadLetters(cluster: Cluster): Promise<number> {
  return (await cluster.jsm.streams.info(cluster.streams.deadLetter)).state.messages;
}

describe("versioned machines (issue #14)", () => {
  it("a host that cannot read an actor's snapshot refuses it: no dead letter, state unchanged, the message waits un-acked and a host of the right version processes it in order", async () => {
    await using cluster = await startCluster({ shardCount: 4 });
    const deadLetters = collect(cluster, "_troupe.deadletter.>");
    const alerts = collect(cluster, ALERT_SUBJECTS);
    const actor = "ledger/x";
    const shard = shardOf({ kind: "ledger", id: "x" }, cluster.shardCount);
    // Another actor on the same shard, to show the rest of the shard goes on.
    const neighbourId = Array.from({ length: 100 }, (_, index) => `y${index}`).find(
      (id) => shardOf({ kind: "ledger", id }, cluster.shardCount) === shard,
    )!;
    const neighbour = `ledger/${neighbourId}`;

    const v2 = await startLedgerHost(cluster, ledgerV2);
    await cluster.send(actor, "ledger.append", { n: 1 }, "x-1");
    await cluster.send(actor, "ledger.append", { n: 2 }, "x-2");
    await waitFor(async () => (await lines(cluster, actor)).length === 2, {
      timeoutMs: 15_000,
      description: "x processed twice by the version 2 host",
    });
    await v2.host.stop();
    const before = await cluster.snapshots.load(actor);
    expect(before?.record.machineVersion).toBe("2");

    const v1 = await startLedgerHost(cluster, ledgerV1);
    expect(v1.host.ownedShards).toContain(shard);
    await cluster.send(actor, "ledger.append", { n: 3 }, "x-3");
    await cluster.send(neighbour, "ledger.append", { n: 1 }, `${neighbourId}-1`);
    await waitFor(() => v1.host.versionRefusals.total >= 1 && alerts.messages.length >= 1, {
      timeoutMs: 15_000,
      description: "the version 1 host refused x and alerted",
    });
    // The neighbour on the same shard is processed by version 1 meanwhile.
    await waitFor(async () => (await lines(cluster, neighbour)).length === 1, {
      timeoutMs: 15_000,
      description: "the neighbour processed while x waits",
    });
    expect(await lines(cluster, neighbour)).toEqual([{ n: 1, version: "1" }]);

    // The refusal: reported, logged, alerted; x's record untouched; nothing dead-lettered.
    const report = v1.host.versionRefusals;
    expect(report.actors).toMatchObject([
      { actor, storedVersion: "2", hostVersion: "1", waitingMessages: 1 },
    ]);
    const after = await cluster.snapshots.load(actor);
    expect(after?.record).toEqual(before?.record);
    const logged = v1.lines.filter(
      (line) => line.level === "error" && line.fields["actor"] === actor,
    );
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged[0]?.message).toBe(
      "refusing to process ledger/x: its snapshot is machine version 2, this host runs 1; " +
        "its messages wait in the inbox (deploy a host that runs version 2, or add a migration)",
    );
    const [subject, ...body] = alerts.messages[0]!.split(" ");
    expect(subject).toBe("_troupe.alert.version.ledger.x");
    const alert = JSON.parse(body.join(" ")) as VersionRefusalAlert;
    expect(alert).toMatchObject({
      type: "actor.refused",
      hostId: v1.host.hostId,
      actor,
      storedVersion: "2",
      hostVersion: "1",
      waitingMessages: 1,
      error: { code: "unknown_machine_version", retryable: true },
    });
    expect(alert.seq).toBeGreaterThan(after!.record.inboxSeq);
    // The message is still in the stream, delivered and not acked.
    await waitFor(
      async () =>
        (
          await cluster.jsm.consumers.info(
            cluster.streams.inbox,
            shardConsumerName("troupe", shard),
          )
        ).num_ack_pending === 1,
      { timeoutMs: 10_000, description: "x's message the only one pending an ack on its shard" },
    );
    expect(deadLetters.messages).toEqual([]);
    // `troupe status` shows it, from the host's record in Redis.
    const readStatus = () =>
      clusterStatus({ redis: cluster.redis, jsm: cluster.jsm, shardCount: cluster.shardCount });
    await waitFor(async () => (await readStatus()).refusedActors.length === 1, {
      timeoutMs: 10_000,
      description: "troupe status lists x as refused",
    });
    const status = await readStatus();
    expect(status.refusedActors).toMatchObject([
      { actor, hostId: v1.host.hostId, storedVersion: "2", hostVersion: "1", waitingMessages: 1 },
    ]);
    expect(formatClusterStatus(status)).toMatch(/refused actors +1 — a host cannot read/);

    // `troupe replay` with the version 1 kind says why it cannot reproduce x.
    const replayedByV1 = await cluster.replay(actor, ledgerV1);
    expect(replayedByV1.reproduces).toBe(false);
    expect(replayedByV1.versionMismatch).toEqual({ storedVersion: "2", replayVersion: "1" });

    // A version 2 host joins, the version 1 host leaves: x's messages are processed, in order.
    const v2Again = await startLedgerHost(cluster, ledgerV2);
    await v1.host.stop();
    await cluster.send(actor, "ledger.append", { n: 4 }, "x-4");
    await waitFor(async () => (await lines(cluster, actor)).length === 4, {
      timeoutMs: 20_000,
      description: "x processed messages 3 and 4 on the version 2 host",
    });
    expect(await lines(cluster, actor)).toEqual([1, 2, 3, 4].map((n) => ({ n, version: "2" })));
    const final = await cluster.snapshots.load(actor);
    // One generation per message: nothing lost, nothing applied twice.
    expect(final?.record.generation).toBe(4);
    expect(v2Again.host.versionRefusals.total).toBe(0);
    // The version 1 host removed its record when it handed the shard over.
    const statusAfter = await readStatus();
    expect(statusAfter.refusedActors).toEqual([]);
    expect((await cluster.replay(actor, ledgerV2)).reproduces).toBe(true);
    await v2Again.host.stop();
    expect(deadLetters.messages).toEqual([]);
    expect(await storedDeadLetters(cluster)).toBe(0);
    deadLetters.stop();
    alerts.stop();
  });

  it("a rolling restart from version 1 to version 2 under load: every message processed once and in order, no actor processed by version 1 after version 2, no dead letter", async () => {
    await using cluster = await startCluster({ shardCount: 16 });
    const deadLetters = collect(cluster, "_troupe.deadletter.>");
    const actors = Array.from({ length: 24 }, (_, index) => `ledger/r${index}`);
    const a = await startLedgerHost(cluster, ledgerV1);
    const b = await startLedgerHost(cluster, ledgerV1);

    // Load: rounds of one message to every actor (each round after the stream
    // acked the previous one, so per actor the inbox order is n = 1, 2, 3, …).
    let rounds = 0;
    let loading = true;
    const load = (async () => {
      while (loading) {
        const n = rounds + 1;
        await Promise.all(
          actors.map((actor) => cluster.send(actor, "ledger.append", { n }, `${actor}:${n}`)),
        );
        rounds = n;
        await sleep(20);
      }
    })();
    const afterMoreRounds = async (more: number, what: string) => {
      const target = rounds + more;
      await waitFor(() => rounds >= target, { timeoutMs: 20_000, description: what });
    };

    await afterMoreRounds(5, "load under two version 1 hosts");
    // A is replaced the way the issue describes: graceful stop, then a version 2 host.
    await a.host.stop();
    await afterMoreRounds(3, "load under B alone");
    const a2 = await startLedgerHost(cluster, ledgerV2);
    await afterMoreRounds(5, "load with a version 1 and a version 2 host side by side");
    // The new version restarts once mid-rollout (a redeploy, a crash loop): B,
    // still version 1, takes back shards whose snapshots version 2 wrote — it
    // must refuse those actors, not misread them nor dead-letter their messages.
    await a2.host.stop();
    await afterMoreRounds(3, "load under B alone again");
    const a3 = await startLedgerHost(cluster, ledgerV2);
    await afterMoreRounds(5, "load with both versions again");
    // B is replaced the same way.
    await b.host.stop();
    await afterMoreRounds(3, "load under the version 2 host alone");
    const b2 = await startLedgerHost(cluster, ledgerV2);
    await afterMoreRounds(3, "load under the two version 2 hosts");
    loading = false;
    await load;

    const sent = rounds;
    await waitFor(
      async () => {
        const all = await Promise.all(actors.map((actor) => lines(cluster, actor)));
        return all.every((lines) => lines.length >= sent);
      },
      { timeoutMs: 30_000, description: `every actor reflects all ${sent} messages` },
    );
    for (const actor of actors) {
      const processed = await lines(cluster, actor);
      // Exactly once, in order.
      expect(processed.map((line) => line.n)).toEqual(
        Array.from({ length: sent }, (_, index) => index + 1),
      );
      // Never version 1 after version 2.
      const firstV2 = processed.findIndex((line) => line.version === "2");
      expect(firstV2).toBeGreaterThanOrEqual(0);
      expect(processed.slice(firstV2).every((line) => line.version === "2")).toBe(true);
      expect((await cluster.snapshots.load(actor))?.record.generation).toBe(sent);
    }
    expect(deadLetters.messages).toEqual([]);
    expect(await storedDeadLetters(cluster)).toBe(0);
    // Every refusal record was removed when its actor left the version 1 hosts.
    expect(await cluster.redis.hlen(new RedisKeys("troupe").refusedActors())).toBe(0);
    const refusals = a.host.versionRefusals.total + b.host.versionRefusals.total;
    // Version 2 reads version 1 snapshots: it never refuses.
    const v2Hosts = [a2, a3, b2];
    expect(v2Hosts.map(({ host }) => host.versionRefusals.total)).toEqual([0, 0, 0]);
    console.log(
      `rolling restart: ${actors.length} actors × ${sent} messages, ${refusals} refused attempts by version 1 hosts ` +
        `(${b.host.versionRefusals.actors.length} actors still refused when B stopped: 0 expected, a stopped host keeps none)`,
    );
    await Promise.all([a3.host.stop(), b2.host.stop()]);
    deadLetters.stop();
  });
});
