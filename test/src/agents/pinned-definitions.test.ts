import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportHistoryCommand, inspectActor, writeHistoryCassette } from "@troupe/admin";
import { formatActorInspection } from "@troupe/admin/internal";
import {
  agentKinds,
  agentMachineKinds,
  defineAgent,
  demoScript,
  ScriptedModel,
} from "@troupe/agents";
import { JetStreamTranscriptReader, RedisAgentDefinitionStore } from "@troupe/agents/internal";
import { RedisKeys } from "@troupe/protocol/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INSTRUCTIONS,
  MODEL_REQUESTS_KEY,
  type RecordedRequest,
} from "../fixtures/pinned-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession, type SessionEventLog } from "../support/session-events.js";

const PINNED_HOST = "test/src/fixtures/pinned-host.ts";
const PAY = '/tool pay {"amount":5}';

// A rolling deploy changes an agent while runs wait on approvals: each run
// continues under the definition it started with (or the one a declared
// migration moves it to), read from the model requests the hosts made.
describe("pinned agent definitions across a rolling restart", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  async function startHost(variant: "v1" | "v1b" | "v2") {
    return await cluster.startHost(
      {},
      { entry: PINNED_HOST, env: { TROUPE_TEST_DEFINITION: variant } },
    );
  }

  /** Starts `next`, then drains `previous`: a rolling restart of one host. */
  async function rollTo(previous: { stop(): Promise<void> }, variant: "v1b" | "v2") {
    const next = await startHost(variant);
    await previous.stop();
    await cluster.waitForOwners([next.hostId], 30_000);
    return next;
  }

  async function requestsOf(sessionId: string): Promise<RecordedRequest[]> {
    const all = await cluster.redis.lrange(MODEL_REQUESTS_KEY, 0, -1);
    return all
      .map((text) => JSON.parse(text) as RecordedRequest)
      .filter((request) => request.sessionId === sessionId);
  }

  async function askToPay(
    sessionId: string,
  ): Promise<{ log: SessionEventLog; toolCallId: unknown }> {
    const log = followSession(cluster.nats, sessionId);
    await cluster.publishToSession(sessionId, { type: "user.message", text: PAY });
    const requested = await log.first("tool.approval_requested");
    expect(requested).toMatchObject({ tool: "pay", arguments: { amount: 5 } });
    return { log, toolCallId: requested["toolCallId"] };
  }

  it("an approved run continues on its pinned definition, a new run uses the new one, and a declared migration is applied and replays", async () => {
    const first = await startHost("v1");
    await cluster.waitForOwners([first.hostId], 30_000);
    // Two runs wait on an approval under version 1.
    const pinned = await askToPay("pin-1");
    const migrating = await askToPay("pin-3");

    // Rolling restart: version 1 with other instructions and another `pay` schema.
    const second = await rollTo(first, "v1b");
    await cluster.publishToSession("pin-1", {
      type: "tool.approve",
      toolCallId: pinned.toolCallId,
    });
    const pinnedDone = await pinned.log.first("run.completed");
    expect(String(pinnedDone["text"])).toContain("paid 5 EUR on v1b");

    const pinnedRequests = await requestsOf("pin-1");
    expect(
      pinnedRequests.map(({ modelCallIndex, system, payProperties, host }) => ({
        modelCallIndex,
        system,
        payProperties,
        host,
      })),
    ).toEqual([
      { modelCallIndex: 1, system: INSTRUCTIONS.v1, payProperties: ["amount"], host: "v1" },
      // Made by the new host, under the definition the run started with.
      { modelCallIndex: 2, system: INSTRUCTIONS.v1, payProperties: ["amount"], host: "v1b" },
    ]);
    const v1Pin = pinnedDone["definition"] as { hash: string; version: string };
    expect(v1Pin).toEqual({
      hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      version: "1",
    });

    // A new run on the new host uses the new definition.
    const fresh = followSession(cluster.nats, "pin-2");
    await cluster.publishToSession("pin-2", { type: "user.message", text: "hello" });
    const freshDone = await fresh.first("run.completed");
    expect(
      (await requestsOf("pin-2")).map(({ system, payProperties }) => ({ system, payProperties })),
    ).toEqual([{ system: INSTRUCTIONS.v1b, payProperties: ["amount", "currency"] }]);
    expect(freshDone["definition"]).toMatchObject({ version: "1" });
    expect((freshDone["definition"] as { hash: string }).hash).not.toBe(v1Pin.hash);

    // `troupe inspect run/<session>` names the definition a waiting run is pinned to.
    const inspection = await inspectActor(
      { redis: cluster.redis, jsm: cluster.jsm, shardCount: cluster.shardCount },
      "run/pin-3",
    );
    expect(inspection.definition).toEqual(v1Pin);
    expect(formatActorInspection(inspection)).toContain(
      `definition  the default agent version 1 (sha256 ${v1Pin.hash.slice(0, 12)})`,
    );

    // Another rolling restart: version 2 declares `migrate: { from: ["1"] }`.
    const third = await rollTo(second, "v2");
    await cluster.publishToSession("pin-3", {
      type: "tool.approve",
      toolCallId: migrating.toolCallId,
    });
    const migratedDone = await migrating.log.first("run.completed");
    expect(
      (await requestsOf("pin-3")).map(({ system, payProperties, host }) => ({
        system,
        payProperties,
        host,
      })),
    ).toEqual([
      { system: INSTRUCTIONS.v1, payProperties: ["amount"], host: "v1" },
      { system: INSTRUCTIONS.v2, payProperties: ["amount", "currency"], host: "v2" },
    ]);
    expect(migratedDone["definition"]).toEqual({
      hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      version: "2",
      migratedFrom: v1Pin,
    });

    // The migrated run replays from its journal: the migration is in the
    // journaled model-call output, so no host's definitions are needed.
    await third.stop();
    const runKind = agentMachineKinds().find((kind) => kind.kind === "run")!;
    const report = await cluster.replay("run/pin-3", runKind);
    expect(report.divergence).toBeUndefined();
    expect(report.reproduces).toBe(true);
    const stored = await cluster.context<{ lastRunId?: string }>("run/pin-3");
    expect(stored?.lastRunId).toBe("r1");

    // A cassette of these conversations renders each call under the definition
    // it was made under — also where this process serves another one.
    const served = defineAgent({
      name: "cashier",
      version: "3",
      migrate: { from: ["1", "2"] },
      instructions: "Served by the exporting process only.",
      model: new ScriptedModel(demoScript),
    });
    const folder = await mkdtemp(join(tmpdir(), "troupe-pinned-cassette-"));
    try {
      const systems: Record<string, string[]> = {};
      for (const session of ["pin-1", "pin-3"]) {
        const history = await exportHistoryCommand(
          {
            redis: cluster.redis,
            jsm: cluster.jsm,
            nats: cluster.nats,
            shardCount: cluster.shardCount,
            kinds: agentKinds({ agents: [served] }),
            tree: true,
          },
          `session/${session}`,
        );
        const file = join(folder, `${session}.json`);
        const report = await writeHistoryCassette(history, {
          file,
          agents: [served],
          transcript: new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript),
          definitions: new RedisAgentDefinitionStore(
            cluster.redis,
            new RedisKeys("troupe", cluster.shardCount),
          ),
        });
        expect(report.calls).toBe(2);
        const cassette = JSON.parse(await readFile(file, "utf8")) as {
          entries: { request: { prompt: { role: string; content: unknown }[] } }[];
        };
        systems[session] = cassette.entries.map((entry) =>
          String(entry.request.prompt.find((message) => message.role === "system")?.content),
        );
      }
      expect(systems).toEqual({
        "pin-1": [INSTRUCTIONS.v1, INSTRUCTIONS.v1],
        "pin-3": [INSTRUCTIONS.v1, INSTRUCTIONS.v2],
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    for (const log of [pinned.log, migrating.log, fresh]) log.stop();
  });
});
