import { randomUUID } from "node:crypto";
import {
  AgentRegistry,
  RedisIdempotencyRecordStore,
  RedisToolResultStore,
  createToolExecuteHandler,
} from "@troupe/agents/internal";
import type { ToolExecuteOutput } from "@troupe/protocol";
import { type EffectContext } from "@troupe/runtime";
import { RedisKeys } from "@troupe/protocol/internal";
import { type ToolEffectClass, defineAgent, defineTool, readToolResult } from "@troupe/agents";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";

let servers: TestServers | undefined;
let redis: Redis | undefined;
const keys = new RedisKeys(`test-tool-execute-${randomUUID()}`);

beforeAll(async () => {
  servers = await startTestServers();
  redis = new Redis(servers.redisUrl, { lazyConnect: true });
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
  await servers?.stop();
});

/** One "host": its own handler over the shared Redis; `hang` makes the next execution wait until aborted. */
function host(effectClass: ToolEffectClass, executions: { count: number }, hang: boolean) {
  if (redis === undefined) throw new Error("beforeAll did not connect to Redis");
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const act = defineTool({
    name: "act",
    description: "Counts its executions outside the host.",
    inputSchema: z.object({}),
    effectClass,
    maxResultBytes: 8,
    execute: async (_input, { signal }) => {
      executions.count += 1;
      started();
      if (hang)
        await new Promise((_, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason as Error)),
        );
      return "x".repeat(20);
    },
  });
  const agents = new AgentRegistry([
    defineAgent({ name: "assistant", instructions: "x", tools: [act] }),
  ]);
  const handler = createToolExecuteHandler({
    toolsOf: (name) => agents.get(name).tools,
    idempotencyRecords: new RedisIdempotencyRecordStore(redis, keys),
    results: new RedisToolResultStore(redis, keys),
    retryBackoffMs: 1,
  });
  const controller = new AbortController();
  const context: EffectContext = {
    signal: controller.signal,
    address: { kind: "tool-call", id: "s" },
    effectId: "e",
    hostRun: () => Promise.resolve(1),
  };
  return { handler, controller, context, running };
}

describe("tool.execute over a real Redis, across two hosts", () => {
  it.each([
    ["non_idempotent_write", "outcome_unknown", 1],
    ["read", "succeeded", 2],
  ] as const)(
    "a %s call whose first host is given up mid-execution gets %s on the next host (%i executions)",
    async (effectClass, status, count) => {
      const executions = { count: 0 };
      const input = {
        sessionId: `s-${randomUUID()}`,
        runId: "r1",
        toolCallId: "c1",
        toolName: "act",
        input: "",
      };
      const first = host(effectClass, executions, true);
      const pending = first.handler(input, first.context);
      await first.running;
      const reason = new Error("shard handed over");
      first.controller.abort(reason);
      await expect(pending).rejects.toBe(reason);

      const second = host(effectClass, executions, false);
      const output = (await second.handler(input, second.context)) as ToolExecuteOutput;
      expect(output.status).toBe(status);
      expect(executions.count).toBe(count);
      if (status === "succeeded") {
        expect(output).toMatchObject({ truncated: true, resultRef: `${input.sessionId}/r1/c1` });
        expect(await readToolResult(redis!, keys, output.resultRef!)).toBe("x".repeat(20));
      }
      // A third host (a retried model call, a redelivered effect) reuses the recorded outcome.
      const third = host(effectClass, executions, false);
      expect(await third.handler(input, third.context)).toEqual(output);
      expect(executions.count).toBe(count);
    },
  );
});
