import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import {
  answer,
  sendChunk,
  sendData,
  sendKeepAlive,
  startHostileModelServer,
  startSse,
  type HostileModelServer,
} from "../support/hostile-model-server.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const HOST = "test/src/fixtures/hostile-model-host.ts";
/** The run machine's tries of one model call: the first and its retries. */
const TRIES = 3;

/**
 * Issue #11, "Every model call is bounded": a real local HTTP server speaking
 * the OpenAI chat-completions SSE format misbehaves on purpose; a real host
 * calls it through `openai-compatible:` agents with short bounds.
 */
describe("model calls are bounded", () => {
  let cluster: Cluster;
  let model: HostileModelServer;
  beforeAll(async () => {
    model = await startHostileModelServer((response, { lastUserText, attempt }) => {
      switch (lastUserText) {
        case "stall": {
          // Starts a tool call, then only SSE keep-alive comments, forever.
          startSse(response);
          sendChunk(response, {
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: "call-1",
                type: "function",
                function: { name: "lookup", arguments: "" },
              },
            ],
          });
          const keepAlive = setInterval(() => sendKeepAlive(response), 50);
          response.on("close", () => clearInterval(keepAlive));
          return;
        }
        case "dribble": {
          // A word every 50 ms, never finishing: only the call timeout ends it.
          startSse(response);
          const dribble = setInterval(() => sendChunk(response, { content: "word " }), 50);
          response.on("close", () => clearInterval(dribble));
          return;
        }
        case "overloaded once":
          if (attempt > 1) return answer(response, "the second answer");
          // A 200 stream carrying Anthropic's overloaded error (its 529), no status field.
          startSse(response);
          sendData(response, {
            type: "error",
            error: { type: "overloaded_error", message: "The servers are overloaded right now" },
          });
          response.end();
          return;
        case "refuse":
          response.writeHead(400, { "content-type": "application/json" });
          response.end(
            JSON.stringify({ error: { message: "bad request", type: "invalid_request_error" } }),
          );
          return;
        default:
          answer(response, `echo: ${lastUserText}`);
      }
    });
    cluster = await startCluster({ shardCount: 4 });
    const host = await cluster.startHost(
      {},
      { entry: HOST, env: { HOSTILE_MODEL_URL: model.baseURL } },
    );
    await cluster.waitForOwners([host.hostId], 20_000);
  });
  afterAll(async () => {
    await cluster?.stop();
    await model?.close();
  });

  function say(sessionId: string, text: string, agent: string): Promise<void> {
    return cluster.publishToSession(sessionId, { type: "user.message", text, agent });
  }

  it("a stream that starts a tool call and then sends only keep-alives fails the run with model_timeout after the retries, each request aborted", async () => {
    const log = followSession(cluster.nats, "stall-1");
    await say("stall-1", "stall", "stalls");
    const failed = await log.first("run.failed", undefined, 30_000);
    expect(failed).toMatchObject({
      code: "model_timeout",
      message: "model hostile of openai-compatible.chat sent no output for 400 ms (idle timeout)",
    });
    expect(model.requestsFor("stall")).toBe(TRIES);
    // Each timeout aborted its HTTP request (the server sees the client close it).
    await waitFor(() => model.abortedFor("stall") === TRIES, {
      timeoutMs: 10_000,
      description: "stall: every request aborted by the client",
    });
    expect(log.types()).not.toContain("run.completed");
    // The session is free again: the next message gets its answer.
    await say("stall-1", "after the stall", "plain");
    expect(await log.first("run.completed", undefined, 20_000)).toMatchObject({
      text: "echo: after the stall",
    });
    log.stop();
  });

  it("an overloaded error inside a 200 stream is retried and the run completes with the second answer", async () => {
    const log = followSession(cluster.nats, "overloaded-1");
    await say("overloaded-1", "overloaded once", "plain");
    expect(await log.first("run.completed", undefined, 20_000)).toMatchObject({
      text: "the second answer",
    });
    expect(model.requestsFor("overloaded once")).toBe(2);
    expect(log.types()).not.toContain("run.failed");
    log.stop();
  });

  it("a stream that keeps dribbling fails the run with model_timeout once the call timeout runs out", async () => {
    const log = followSession(cluster.nats, "dribble-1");
    await say("dribble-1", "dribble", "dribbles");
    const failed = await log.first("run.failed", undefined, 30_000);
    expect(failed).toMatchObject({
      code: "model_timeout",
      message:
        "model hostile of openai-compatible.chat did not finish within 1200 ms (call timeout)",
    });
    expect(model.requestsFor("dribble")).toBe(TRIES);
    // Each timeout aborted its HTTP request (the server sees the client close it).
    await waitFor(() => model.abortedFor("dribble") === TRIES, {
      timeoutMs: 10_000,
      description: "dribble: every request aborted by the client",
    });
    // It did stream: the deltas of the tries reached the session.
    expect(log.ofType("run.delta").length).toBeGreaterThan(0);
    log.stop();
  });

  it("a refused request fails the run with the provider's message once, in the event and in the host's log", async () => {
    const log = followSession(cluster.nats, "refuse-1");
    await say("refuse-1", "refuse", "plain");
    const failed = await log.first("run.failed", undefined, 20_000);
    const message = "model hostile of openai-compatible.chat failed (HTTP 400): bad request";
    expect(failed).toEqual({ runId: "r1", code: "model_error", message, transcriptLength: 1 });
    expect(model.requestsFor("refuse")).toBe(1);
    const logged = cluster.hosts[0]!.stdout()
      .split("\n")
      .filter((line) => line.includes('"effect failed"') && line.includes("HTTP 400"))
      .map((line) => JSON.parse(line) as { error: { message: string }; err?: unknown });
    expect(logged.map((entry) => entry.error.message)).toEqual([message]);
    // An expected model error: no stack at the warn level (issue #13).
    expect(logged.map((entry) => entry.err)).toEqual([undefined]);
    log.stop();
  });
});
