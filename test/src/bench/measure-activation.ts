import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisSnapshotStore } from "@troupe/runtime/internal";
import type { Redis } from "ioredis";
import { createActor } from "xstate";
import { counterKind } from "../fixtures/counter-machine.js";
import { summarizeLatencies, type LatencySummary } from "./latency-summary.js";

/** Activation latency next to its raw floor, for one pass over the actors. */
export interface ActivationPass {
  /** `RedisSnapshotStore.load` + restoring the xstate snapshot, in ms. */
  readonly host: LatencySummary;
  /** A bare `GET` of the same snapshot bytes, in ms. */
  readonly raw: LatencySummary;
}

/** What {@link measureActivation} reports. */
export interface ActivationResult extends ActivationPass {
  /** The first pass, right after the deployment was written (JIT and GC not settled). */
  readonly firstPass: ActivationPass;
  /** Mean size of the stored snapshots, in bytes. */
  readonly meanSnapshotBytes: number;
}

/**
 * Activation from a stored snapshot, one actor at a time: what an `ActorCell`
 * does before its first message — `RedisSnapshotStore.load` (GET + msgpack
 * decode) and `createActor(machine, { snapshot }).getSnapshot()` (the restore the
 * pure step performs). The raw floor is a bare `GET` of the same actor key.
 * Host and raw alternate per actor, so a pause of the process or a server hits
 * both alike. Two passes over the same distinct actors: the first is reported
 * apart; the second is the result.
 *
 * @param redis - a client of the deployment's Redis.
 * @param keys - the deployment's key layout.
 * @param snapshots - the snapshot store on that client.
 * @param actors - actors with a stored snapshot.
 * @returns the second pass, the first pass and the mean snapshot size.
 * @throws Error when an actor has no stored snapshot.
 */
export async function measureActivation(
  redis: Redis,
  keys: RedisKeys,
  snapshots: RedisSnapshotStore,
  actors: readonly string[],
): Promise<ActivationResult> {
  let totalBytes = 0;
  const activate = async (actor: string): Promise<void> => {
    const stored = await snapshots.load(actor);
    if (stored === undefined) throw new Error(`${actor} has no stored snapshot`);
    createActor(counterKind.machine, { snapshot: stored.record.state as never }).getSnapshot();
  };
  const readRaw = async (actor: string): Promise<void> => {
    const bytes = await redis.getBuffer(keys.actor(actor));
    if (bytes === null) throw new Error(`${actor} has no stored snapshot`);
    totalBytes += bytes.byteLength;
  };
  const pass = async (): Promise<ActivationPass> => {
    const hostMs: number[] = [];
    const rawMs: number[] = [];
    for (const actor of actors) {
      hostMs.push(await timed(() => activate(actor)));
      rawMs.push(await timed(() => readRaw(actor)));
    }
    return { host: summarizeLatencies(hostMs), raw: summarizeLatencies(rawMs) };
  };
  const firstPass = await pass();
  totalBytes = 0;
  return { ...(await pass()), firstPass, meanSnapshotBytes: totalBytes / actors.length };
}

async function timed(run: () => Promise<void>): Promise<number> {
  const startedAt = performance.now();
  await run();
  return performance.now() - startedAt;
}
