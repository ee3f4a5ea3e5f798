import { parseAddress, shardOf } from "@troupe/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import {
  HANDOVER_HOST,
  expectEveryCallCompletedOnce,
  slowToolCalls,
  type SlowToolCalls,
} from "../support/slow-tool-calls.js";

// Issue #11: a planned operation (scale-up, SIGTERM) must not turn finished
// work into "outcome unknown": the old owner lets running effects finish and
// record their results before it releases the shard's lease.

const SHARDS = 16;
const SESSIONS = Array.from({ length: 24 }, (_, index) => `handover-${index}`);
const TOOL_MS = 4000;

describe("graceful hand-over of shards with running tool calls", () => {
  let cluster: Cluster | undefined;
  let calls: SlowToolCalls | undefined;
  afterEach(async () => {
    calls?.stop();
    await cluster?.stop();
  });

  /** Two hosts serving every shard and 24 sessions each running a 4 s non_idempotent_write. */
  async function twoHostsUnderLoad() {
    cluster = await startCluster({ shardCount: SHARDS });
    calls = await slowToolCalls(cluster.nats, SESSIONS, "slow_charge");
    const env = { TROUPE_TEST_TOOL_DIR: calls.toolDir };
    const hosts = await Promise.all([
      cluster.startHost({}, { entry: HANDOVER_HOST, env }),
      cluster.startHost({}, { entry: HANDOVER_HOST, env }),
    ]);
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      20_000,
    );
    await calls.send(cluster.js, TOOL_MS);
    await calls.waitStarted(20_000);
    return { hosts, env, ownersWhileRunning: await cluster.owners() };
  }

  /** Shards of the tool-call actors whose owner changed since `before`. */
  async function movedCallShards(before: (string | undefined)[]): Promise<number> {
    const after = await cluster!.owners();
    const shards = [...calls!.logs.values()].flatMap((log) =>
      log.ofType("tool.started").map((event) => shardOf(parseAddress(event.meta.actor), SHARDS)),
    );
    expect(shards).toHaveLength(SESSIONS.length);
    return shards.filter((shard) => before[shard] !== after[shard]).length;
  }

  it("a third host joining takes its share only after the running calls finished: every call completes once, none is outcome unknown", async () => {
    const { hosts, env, ownersWhileRunning } = await twoHostsUnderLoad();
    const third = await cluster!.startHost({}, { entry: HANDOVER_HOST, env });
    const ids = [...hosts, third].map((host) => host.hostId);
    await cluster!.waitForBalance(ids, 30_000);
    await expectEveryCallCompletedOnce(calls!);
    // The hand-over did reach shards with calls running on them.
    expect(await movedCallShards(ownersWhileRunning)).toBeGreaterThan(0);
    for (const host of [...hosts, third]) expect(host.child.exitCode).toBeNull();
  }, 90_000); // the sum of its waits: on a loaded machine a wait fails with its description first

  it("a SIGTERMed host finishes its running calls before it releases its shards and exits 0: every call completes once, none is outcome unknown", async () => {
    const { hosts, ownersWhileRunning } = await twoHostsUnderLoad();
    const [leaving, staying] = hosts;
    const leavingShards = ownersWhileRunning.filter((owner) => owner === leaving.hostId).length;
    expect(leavingShards).toBeGreaterThan(0);
    leaving.signal("SIGTERM");
    expect(await leaving.exited).toEqual({ code: 0, signal: null });
    await cluster!.waitForOwners([staying.hostId], 20_000);
    await expectEveryCallCompletedOnce(calls!);
    expect(await movedCallShards(ownersWhileRunning)).toBeGreaterThan(0);
    expect(leaving.stderr()).not.toMatch(/Unhandled error event/);
    expect(staying.child.exitCode).toBeNull();
  }, 90_000);
});
