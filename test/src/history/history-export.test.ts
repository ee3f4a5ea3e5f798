import { agentMachineKinds } from "@troupe/agents";
import {
  formatHistory,
  parseAddress,
  parseHistory,
  type HistoryActor,
  type TroupeHistory,
} from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { exportActorHistory, HistoryNotReproducibleError } from "@troupe/runtime";
import { encodeStoredActorValue } from "@troupe/runtime/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";

// `troupe history export --tree` of a live conversation (issue #14): a tool
// call, an approval and a subagent, against real NATS and Redis, and a
// snapshot that no longer matches its journal refused.
const DEMO_HOST = "test/src/demo/demo-host.ts";
const RUN_TIMEOUT_MS = 30_000;
const SESSION = "history-1";

describe("history export of a live conversation", () => {
  let cluster: Cluster | undefined;
  let history: TroupeHistory | undefined;

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 4 });
    const host = await cluster.startHost({}, { entry: DEMO_HOST, env: { TROUPE_MODEL: "" } });
    await cluster.waitForOwners([host.hostId], 20_000);
    const log = followSession(cluster.nats, SESSION);
    const idles = (count: number) =>
      log.until(
        (events) =>
          events.filter(
            (event) => event.type === "session.idle" && event.meta.actor === `session/${SESSION}`,
          ).length >= count,
        RUN_TIMEOUT_MS,
        `session.idle #${count}`,
      );
    const ask = (text: string) =>
      running().publishToSession(SESSION, { type: "user.message", agent: "demo", text });
    try {
      await ask("what time is it in Tokyo?");
      await idles(1);
      await ask("email ada@example.com about the launch on Friday");
      const approval = await log.first("tool.approval_requested", undefined, RUN_TIMEOUT_MS);
      await running().publishToSession(SESSION, {
        type: "tool.approve",
        toolCallId: approval["toolCallId"],
      });
      await idles(2);
      await ask("ask the researcher what time it is in Tokyo");
      await idles(3);
      expect(String(log.payloads("run.completed").at(-1)?.["text"])).toMatch(
        /^The researcher says: It is \d{2}:\d{2} in Asia\/Tokyo\.$/,
      );
    } finally {
      log.stop();
    }
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  function running(): Cluster {
    if (cluster === undefined) throw new Error("beforeAll did not start the cluster");
    return cluster;
  }

  function exportTree(address: string): Promise<TroupeHistory> {
    const { js, jsm, streams, shardCount, snapshots } = running();
    return exportActorHistory(
      {
        js,
        jsm,
        streams,
        shardCount,
        snapshots,
        kinds: new Map(agentMachineKinds().map((kind) => [kind.kind, kind])),
        nowMs: () => 1_800_000_000_000,
      },
      parseAddress(address),
      { tree: true },
    );
  }

  function actor(address: string): HistoryActor {
    const found = history?.actors.find((candidate) => candidate.address === address);
    if (found === undefined) throw new Error(`${address} is not in the history`);
    return found;
  }

  it("--tree lists the session, its run, every tool call and the subagent's session, run and tool; all reproduce", async () => {
    history = await exportTree(`session/${SESSION}`);
    expect(history).toMatchObject({
      format: "troupe.history",
      formatVersion: 1,
      exportedAtMs: 1_800_000_000_000,
      root: `session/${SESSION}`,
      tree: true,
    });
    const addresses = history.actors.map((entry) => entry.address);
    expect(addresses.slice(0, 2)).toEqual([`session/${SESSION}`, `run/${SESSION}`]);
    const subSessions = addresses.filter((address) => address.startsWith("session/sub-"));
    expect(subSessions).toHaveLength(1);
    const subId = subSessions[0]!.slice("session/".length);
    expect(addresses).toContain(`run/${subId}`);
    // clock and send_email of the session's run, the researcher call, the subagent's clock.
    expect(addresses.filter((address) => address.startsWith("tool/"))).toHaveLength(4);
    expect(addresses).toHaveLength(8);
    expect(new Set(addresses).size).toBe(8);

    for (const entry of history.actors) {
      expect(entry.journal.length, entry.address).toBeGreaterThan(0);
      expect(entry.generations.at(-1)?.stored, entry.address).toBe(true);
    }
    const session = actor(`session/${SESSION}`);
    expect(session.journal.map((entry) => entry.type)).toEqual(
      expect.arrayContaining(["user.message", "tool.approve", "run.finished"]),
    );
    expect(session.journal.filter((entry) => entry.type === "user.message")).toHaveLength(3);
    // The approved call (the session forwards the approval to it): start, approval, result.
    const approved = history.actors.filter(
      (entry) =>
        entry.address.startsWith("tool/") &&
        entry.journal.some((message) => message.type === "tool.approve"),
    );
    expect(approved.map((entry) => entry.journal.map((message) => message.type))).toEqual([
      ["tool.start", "tool.approve", "effect.completed"],
    ]);
  });

  it("the history survives JSON and NDJSON unchanged", () => {
    expect(history).toBeDefined();
    expect(parseHistory(formatHistory(history!, "json"))).toEqual(history);
    expect(parseHistory(formatHistory(history!, "ndjson"))).toEqual(history);
  });

  it("a stored snapshot that its journal does not reproduce is refused, naming actor, generation and path", async () => {
    const { snapshots, redis } = running();
    const subSession = history!.actors.find((entry) => entry.address.startsWith("session/sub-"));
    const target = subSession!.address;
    const stored = await snapshots.load(target);
    expect(stored).toBeDefined();
    const record = stored!.record;
    const state = record.state as { context: Record<string, unknown> };
    const tampered = {
      ...record,
      state: { ...state, context: { ...state.context, runCount: 99 } },
    };
    await redis.set(
      new RedisKeys("troupe", running().shardCount).actor(target),
      encodeStoredActorValue(tampered),
    );
    expect((await snapshots.load(target))?.record.state).toMatchObject({
      context: { runCount: 99 },
    });

    const error: unknown = await exportTree(`session/${SESSION}`).catch(
      (caught: unknown) => caught,
    );
    expect(HistoryNotReproducibleError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "history_not_reproducible",
      actor: target,
      generation: record.generation,
      path: "/state/context/runCount",
      expected: 99,
      reason: "diverged",
    });
    expect((error as Error).message).toContain(target);
  });
});
