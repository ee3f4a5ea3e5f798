/**
 * Issue #31: heavy input must not stall a host. One host serves 20 sessions
 * that stream answers while another session sends a 20 MiB image and asks two
 * follow-ups (each re-reads the image for its prompt), or runs a tool that
 * returns three results of 8 MiB. The host must lose no lease (the fencing
 * tokens in Redis do not move), every other session's turns complete, and the
 * event loop's delay p99 (measured here: the host runs in this process) stays
 * below a quarter of the lease TTL.
 *
 * The delay is printed as measured. The assertion takes off the p99 of the
 * same 20 sessions without the heavy input, measured just before in the same
 * run: on a machine shared with other test files, CPU starvation delays the
 * loop too, and that is not what this test is about.
 */
import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { RedisLeaseStore } from "@troupe/runtime/internal";
import { RedisKeys } from "@troupe/protocol/internal";
import { MAX_MEDIA_BYTES } from "@troupe/protocol";
import { defineAgent, defineTool } from "@troupe/agents";
import {
  callTool,
  createTestDeployment,
  reply,
  scriptedModel,
  type TestDeployment,
} from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "../support/wait-for.js";

const PREFIX = "stall";
const SHARDS = 16;
const LEASE_TTL_MS = 2_000;
const STREAMING_SESSIONS = 20;
const TURNS_PER_SESSION = 3;
const EIGHT_MIB = 8 * 1024 * 1024;

/** An answer of 40 words streamed in chunks 5 ms apart (about a second per turn). */
const ANSWER = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");

const chatter = defineAgent({
  name: "chatter",
  instructions: "Chat.",
  model: scriptedModel(() => reply(ANSWER, { chunkDelayMs: 5 })),
});

const looker = defineAgent({
  name: "looker",
  instructions: "Look at images.",
  model: scriptedModel(() => reply("I see a large picture.")),
});

const bigResults = defineTool({
  name: "big_result",
  description: "Returns 8 MiB of text.",
  inputSchema: z.object({ part: z.number() }),
  effectClass: "read",
  execute: ({ part }) => Promise.resolve(`${part}:`.padEnd(EIGHT_MIB, "x")),
});

const reader = defineAgent({
  name: "reader",
  instructions: "Read large results.",
  tools: [bigResults],
  model: scriptedModel([
    () => callTool("big_result", { part: 1 }, { toolCallId: "big-1" }),
    () => callTool("big_result", { part: 2 }, { toolCallId: "big-2" }),
    () => callTool("big_result", { part: 3 }, { toolCallId: "big-3" }),
    () => reply("Read all three."),
  ]),
});

describe("a host under heavy input keeps its leases and its other sessions (issue #31)", () => {
  let deployment: TestDeployment;
  let leases: RedisLeaseStore;

  beforeAll(async () => {
    deployment = await createTestDeployment({
      agents: [chatter, looker, reader],
      prefix: PREFIX,
      shardCount: SHARDS,
      hostSettings: { leaseTtlMs: LEASE_TTL_MS },
      servers: { dataDirPrefix: testRunMarker() },
      timeoutMs: 120_000,
    });
    leases = new RedisLeaseStore(deployment.redis, new RedisKeys(PREFIX, SHARDS));
  }, 60_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  const tokens = async () => (await leases.holders(SHARDS)).map((holder) => holder.token);

  /** Runs `heavy` while 20 sessions stream 3 turns each; returns the event-loop delay p99 (ms). */
  async function underLoad(name: string, heavy: () => Promise<void>): Promise<number> {
    // Every shard leased (a shard whose consumer could not start at once is taken again by the next rebalance).
    await waitFor(async () => (await tokens()).every((token) => token !== undefined), {
      timeoutMs: 20_000,
      description: "every shard leased",
    });
    const before = await tokens();
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const streaming = Array.from({ length: STREAMING_SESSIONS }, async (_, index) => {
      const texts: string[] = [];
      for (let turn = 0; turn < TURNS_PER_SESSION; turn += 1) {
        const outcome = await deployment.sendAndWait(`${name.replace(/\W+/g, "-")}-chat-${index}`, {
          text: `turn ${turn}`,
          agent: "chatter",
        });
        texts.push(outcome.status === "completed" ? outcome.text : outcome.status);
      }
      return texts;
    });
    await heavy();
    const answers = await Promise.all(streaming);
    histogram.disable();
    const p99Ms = histogram.percentile(99) / 1e6 - 10;
    const maxMs = histogram.max / 1e6 - 10;
    console.log(
      `${name}: event-loop delay p99 ${p99Ms.toFixed(1)} ms, max ${maxMs.toFixed(1)} ms ` +
        `(a quarter of the lease TTL: ${LEASE_TTL_MS / 4} ms); ${histogram.count} samples`,
    );
    // Every other session's turns completed with the whole answer.
    expect(answers.flat()).toEqual(Array(STREAMING_SESSIONS * TURNS_PER_SESSION).fill(ANSWER));
    // No lease lost: every shard is still held under the grant it had.
    expect(await tokens()).toEqual(before);
    return p99Ms;
  }

  /** The heavy input's p99, less the p99 of the same streaming sessions alone, is under a quarter of the TTL. */
  async function expectNoStall(name: string, heavy: () => Promise<void>): Promise<void> {
    const baseline = await underLoad(`${name} (baseline, no heavy input)`, () => Promise.resolve());
    const loaded = await underLoad(name, heavy);
    console.log(
      `${name}: p99 ${loaded.toFixed(1)} ms with the heavy input, ${baseline.toFixed(1)} ms without it`,
    );
    expect(loaded - baseline).toBeLessThan(LEASE_TTL_MS / 4);
  }

  it("a 20 MiB image and two follow-ups", async () => {
    const image = randomBytes(MAX_MEDIA_BYTES);
    await expectNoStall("image", async () => {
      const ref = await deployment.client.uploadMedia(image, {
        mediaType: "image/png",
        name: "big.png",
      });
      const texts: string[] = [];
      for (const text of ["What is this?", "And the colours?", "Thanks, anything else?"]) {
        const outcome = await deployment.sendAndWait("image-looker", {
          text,
          agent: "looker",
          ...(texts.length === 0 ? { attachments: [ref] } : {}),
        });
        texts.push(outcome.status === "completed" ? outcome.text : outcome.status);
      }
      expect(texts).toEqual(Array(3).fill("I see a large picture."));
    });
  }, 180_000);

  it("three tool results of 8 MiB each", async () => {
    await expectNoStall("tool", async () => {
      const outcome = await deployment.sendAndWait("tool-reader", {
        text: "Read them",
        agent: "reader",
      });
      expect(outcome).toMatchObject({ status: "completed", text: "Read all three." });
    });
  }, 180_000);
});
