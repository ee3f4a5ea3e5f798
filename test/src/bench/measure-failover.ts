import { setTimeout as sleep } from "node:timers/promises";
import { decodeEvent, eventWildcard, parseAddress, shardOf } from "@troupe/protocol";
import { counterEventSchemas } from "../fixtures/counter-machine.js";
import type { HostProcess } from "../support/host-process.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";
import type { BenchResources } from "./bench-resources.js";

/** Options of {@link measureFailover}. */
export interface FailoverOptions {
  /** Kills measured, each with a fresh victim host. */
  readonly rounds: number;
  readonly shardCount: number;
  /** Pause between two probe messages, in ms. */
  readonly probeIntervalMs: number;
  /** Longest wait for the first event after a kill, in ms. */
  readonly recoveryTimeoutMs: number;
  /** Longest wait for hosts to start and share the shards, in ms. */
  readonly startupTimeoutMs: number;
  readonly resources: BenchResources;
}

/**
 * Failover after SIGKILL, with two host child processes (`startHostProcess`,
 * default settings). Each round: a probe actor on a shard the victim owns gets a
 * `counter.increment` every `probeIntervalMs`; once its events flow, the victim is
 * SIGKILLed and the clock runs until the first `counter.changed` event caused by a
 * message published after the kill. The survivor stays up; a fresh victim joins
 * for the next round.
 *
 * @param options - rounds, probe rate and timeouts.
 * @returns the failover time of each round, in ms.
 * @throws Error when hosts do not start or no event follows a kill in time.
 */
export async function measureFailover(options: FailoverOptions): Promise<number[]> {
  const { resources } = options;
  const cluster = resources.track(await startCluster({ shardCount: options.shardCount }), (c) =>
    c.stop(),
  );
  try {
    const [survivor, first] = await Promise.all([cluster.startHost(), cluster.startHost()]);
    let victim: HostProcess = first;
    const failoversMs: number[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      if (round > 1) victim = await cluster.startHost();
      await cluster.waitForOwners([survivor.hostId, victim.hostId], options.startupTimeoutMs);
      const owners = await cluster.owners();
      const probe = probeActorOwnedBy(victim.hostId, owners, round, options.shardCount);
      failoversMs.push(
        await killAndTime(cluster, victim, probe, round, options).finally(() => victim.stop()),
      );
    }
    return failoversMs;
  } finally {
    await resources.release(cluster);
  }
}

function probeActorOwnedBy(
  hostId: string,
  owners: readonly (string | undefined)[],
  round: number,
  shardCount: number,
): string {
  for (let index = 0; index < 10_000; index += 1) {
    const id = `probe${round}x${index}`;
    if (owners[shardOf({ kind: "counter", id }, shardCount)] === hostId) return `counter/${id}`;
  }
  throw new Error(`no probe actor found on a shard of ${hostId}`);
}

async function killAndTime(
  cluster: Cluster,
  victim: HostProcess,
  probe: string,
  round: number,
  options: FailoverOptions,
): Promise<number> {
  const sentAtMs = new Map<string, number>();
  let killedAtMs = Number.POSITIVE_INFINITY;
  let eventsSeen = 0;
  let recoveredAtMs: number | undefined;
  const subscription = cluster.nats.subscribe(eventWildcard(parseAddress(probe)), {
    callback: (error, message) => {
      if (error !== null || !message.subject.endsWith(".counter.changed")) return;
      const arrivedAtMs = performance.now();
      eventsSeen += 1;
      const event = decodeEvent(message.data, {
        subject: message.subject,
        contentType: message.headers?.get("Content-Type"),
        schemas: counterEventSchemas,
      });
      const sentAt = sentAtMs.get(event.meta.causationId ?? "");
      if (sentAt !== undefined && sentAt >= killedAtMs) recoveredAtMs ??= arrivedAtMs;
    },
  });
  await cluster.nats.flush();
  let probing = true;
  const probeLoop = (async () => {
    for (let index = 0; probing; index += 1) {
      const messageId = `failover-${round}-${index}`;
      sentAtMs.set(messageId, performance.now());
      void cluster.send(probe, "counter.increment", { by: 1 }, messageId).catch(() => undefined);
      await sleep(options.probeIntervalMs);
    }
  })();
  try {
    await waitFor(() => eventsSeen >= 5, {
      timeoutMs: options.startupTimeoutMs,
      intervalMs: 10,
      description: `probe ${probe} answered by ${victim.hostId}`,
    });
    killedAtMs = performance.now();
    victim.signal("SIGKILL");
    await waitFor(() => recoveredAtMs !== undefined, {
      timeoutMs: options.recoveryTimeoutMs,
      intervalMs: 5,
      description: `an event for a message sent after killing ${victim.hostId}`,
    });
    return (recoveredAtMs ?? Number.NaN) - killedAtMs;
  } finally {
    probing = false;
    await probeLoop;
    subscription.unsubscribe();
  }
}
