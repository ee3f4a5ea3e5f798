import { InvalidToolError, MAX_TOOL_RESULT_BYTES, defineTool } from "@troupe/agents";
import { RedisKeys } from "@troupe/protocol/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DUMP_RESULT_BYTES } from "../fixtures/poison-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import type { HostProcess } from "../support/host-process.js";
import { followSession, type SessionEventLog } from "../support/session-events.js";

const POISON_AGENT_HOST = "test/src/fixtures/poison-agent-host.ts";

/**
 * Issue #11, must show: a tool returning 3 MB with maxResultBytes 8 MiB, a model
 * answering 1.1 MB of text and a model calling a tool with 1.1 MB of arguments
 * leave the host running, each run ends with a clear failure or a stored
 * reference, and other sessions on the same host keep streaming.
 */
describe("poison runs", () => {
  let cluster: Cluster;
  let host: HostProcess;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    host = await cluster.startOnlyHost(POISON_AGENT_HOST);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  function say(sessionId: string, text: string): Promise<unknown> {
    return cluster.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode(JSON.stringify({ type: "user.message", text })),
    );
  }

  async function ended(log: SessionEventLog): Promise<string> {
    await log.until(
      (events) =>
        events.some((event) => event.type === "run.completed" || event.type === "run.failed"),
      60_000,
      "the run ended",
    );
    return log.types().includes("run.completed") ? "completed" : "failed";
  }

  function expectHostAlive(): void {
    expect(host.child.exitCode).toBeNull();
    expect(host.child.signalCode).toBeNull();
    expect(host.stderr()).not.toMatch(/Unhandled|PayloadTooLargeError|uncaught/i);
  }

  it("defineTool refuses maxResultBytes 8 MiB, naming the limit", () => {
    expect(() =>
      defineTool({
        name: "dump",
        description: "x",
        inputSchema: z.object({}),
        maxResultBytes: 8 * 1024 * 1024,
        execute: () => Promise.resolve(""),
      }),
    ).toThrow(InvalidToolError);
    expect(() =>
      defineTool({
        name: "dump",
        description: "x",
        inputSchema: z.object({}),
        maxResultBytes: 8 * 1024 * 1024,
        execute: () => Promise.resolve(""),
      }),
    ).toThrow(/maxResultBytes: must be at most 524288 bytes/);
  });

  it("poison runs end clearly while another session streams, and a normal run completes after them", async () => {
    // A session streaming slowly the whole time, on the same (only) host.
    const bystander = followSession(cluster.nats, "bystander");
    await say("bystander", "/slow 150");

    const text = followSession(cluster.nats, "huge-text");
    const args = followSession(cluster.nats, "huge-args");
    const dump = followSession(cluster.nats, "dump");
    await Promise.all([
      say("huge-text", "/huge-text"),
      say("huge-args", "/huge-args"),
      say("dump", "/dump"),
    ]);

    // 1.1 MB of model text: the run fails with payload_too_large, saying why.
    expect(await ended(text)).toBe("failed");
    const textFailed = text.payloads("run.failed")[0]!;
    expect(textFailed.code).toBe("payload_too_large");
    expect(textFailed.message).toMatch(
      /^The model's answer is 11\d{5} bytes \(text, reasoning and tool-call arguments\); the limit is 524288 bytes\.$/,
    );

    // A tool call with 1.1 MB of arguments: the same, and the tool never ran.
    expect(await ended(args)).toBe("failed");
    const argsFailed = args.payloads("run.failed")[0]!;
    expect(argsFailed.code).toBe("payload_too_large");
    expect(argsFailed.message).toMatch(
      /^The model's answer is 11\d{5} bytes .*the limit is 524288 bytes\.$/,
    );
    expect(args.types()).not.toContain("tool.started");

    // A 3 MB tool result (tool copied with maxResultBytes 8 MiB): stored by
    // reference, the model sees 512 KiB of it, the run completes.
    expect(await ended(dump)).toBe("completed");
    const completedTool = dump.payloads("tool.completed")[0]!;
    expect(completedTool.truncated).toBe(true);
    const ref = "dump/r1/dump-1";
    expect(completedTool.content).toContain(
      `[Truncated: the result has ${DUMP_RESULT_BYTES} bytes; only the first ${MAX_TOOL_RESULT_BYTES} are shown. The full result is stored by reference "${ref}"`,
    );
    const stored = await cluster.redis.get(new RedisKeys("troupe").toolResult(ref));
    expect(stored?.length).toBe(DUMP_RESULT_BYTES);
    expect(dump.payloads("run.completed")[0]?.text).toMatch(/^tool said: /);

    // The bystander kept streaming and finished its answer.
    expect(await ended(bystander)).toBe("completed");
    expect(bystander.ofType("run.delta").length).toBeGreaterThan(10);

    // Each poison session takes its next message; a fresh session completes a run.
    const fresh = followSession(cluster.nats, "after");
    await Promise.all([say("after", "are you there"), say("huge-text", "still there")]);
    expect(await ended(fresh)).toBe("completed");
    expect(fresh.payloads("run.completed")[0]?.text).toBe("You said: are you there");
    await text.until(
      (events) => events.filter((event) => event.type === "run.completed").length === 1,
      30_000,
      "huge-text session completes its second run",
    );
    expect(text.payloads("run.completed")[0]?.text).toBe("You said: still there");
    expectHostAlive();
    for (const log of [bystander, text, args, dump, fresh]) log.stop();
  });
});
