import { readFileSync } from "node:fs";
import { agentKinds, historyAgentsOf } from "@troupe/agents";
import type { AgentModuleContext, AgentModuleExport } from "@troupe/host";
import { agentsOfExport } from "@troupe/host";
import { exportHistoryCommand, writeHistoryCassette } from "@troupe/admin";
import { TroupeClient } from "@troupe/client";
import {
  DEFAULT_DEPLOYMENT_PREFIX,
  TroupeError,
  formatAddress,
  type EventEnvelope,
  type EventType,
} from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { streamNames } from "@troupe/protocol";
import { JetStreamTranscriptReader, RedisAgentDefinitionStore } from "@troupe/agents/internal";
import { ActorHost, redisRetryDelayMs, type HostSettingsInput } from "@troupe/runtime";
import { advanceDurableTimers } from "@troupe/runtime/internal";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { Redis } from "ioredis";
import { pino } from "pino";
import { TestClock } from "../clock/test-clock.js";
import type { EventExpectation, ExpectedEvents } from "../events/event-expectation.js";
import {
  expectSessionEvents,
  storedSessionEvents,
  waitForPendingApproval,
  waitForPendingQuestion,
  type PendingApproval,
  type PendingQuestion,
  type WaitOptions,
} from "../events/session-waits.js";
import {
  startTestServers,
  type TestServers,
  type TestServersOptions,
} from "../servers/start-test-servers.js";
import type { TestDeployment, TestRunOutcome } from "./test-deployment.js";

/** This package's version: written as a history's `producer.troupe`. */
const TESTKIT_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

/** Default of every wait of a test deployment, in ms. */
export const DEFAULT_TEST_TIMEOUT_MS = 30_000;

/** Options of {@link createTestDeployment}. */
export interface TestDeploymentOptions {
  /**
   * The agents to host, as an agent module exports them: an agent made with
   * `defineAgent`, an array of them, or a (possibly async) function of
   * `{ redis, natsUrl, redisUrl, log }` returning either.
   */
  readonly agents: AgentModuleExport;
  /** In-process hosts serving the agents; default 1 (1 to 8). */
  readonly hosts?: number;
  /** Deployment prefix; default `"troupe"`. */
  readonly prefix?: string;
  /** Shards of the deployment; default 4 (a test needs few, and they start faster). */
  readonly shardCount?: number;
  /** Further host settings (`hostSettingsSchema` of `@troupe/runtime`), e.g. `{ timerPollIntervalMs: 50 }`. */
  readonly hostSettings?: Omit<HostSettingsInput, "prefix" | "shardCount" | "hostId">;
  /** Log level of the hosts (pino: `"debug"`, `"info"`, `"warn"`, `"silent"`, …); default `"warn"`. */
  readonly logLevel?: string;
  /** Default timeout of every wait (`sendAndWait`, `expectEvents`, …), in ms; default 30 000 ms. */
  readonly timeoutMs?: number;
  /**
   * Where the servers come from and how they are marked: `provider`
   * (`"containers"` or `"local"`; default `TROUPE_TEST_SERVERS`, else containers
   * when a runtime answers), `dataDirPrefix`, `containerLabels`,
   * `containerStartupTimeoutMs`, `redisAppendOnly`.
   */
  readonly servers?: Omit<TestServersOptions, "shardCount">;
}

/**
 * Starts a throwaway Troupe deployment for a test (docs/decisions/0023): real NATS
 * JetStream and Redis servers — containers (`nats:2.10`, `redis:7`, through the
 * optional `testcontainers` package) when a container runtime answers, else the
 * local `nats-server` and `redis-server` binaries on free loopback ports —
 * `hosts` in-process actor hosts serving `agents`, a `TroupeClient`, and the
 * helpers of {@link TestDeployment}: `sendAndWait`, `expectEvents`,
 * `waitForApproval` / `approve` / `deny`, `waitForQuestion` / `answer`,
 * `events`, and `clock.advance` for durable timers. Nothing is shared with
 * another deployment; `stop()` (or `await using`) removes everything.
 *
 * @param options - the agents; optionally hosts (default 1), prefix, shard
 *   count (default 4), host settings, log level, timeout (default 30 000 ms) and
 *   server options.
 * @returns the running deployment.
 * @throws TroupeError (`invalid_options`) for a bad `hosts`, `shardCount` or
 *   `timeoutMs`, before anything starts.
 * @throws AgentModuleError (from `@troupe/cli`) when `agents` holds no agents made with `defineAgent`.
 * @throws ServerBinaryMissingError (from `@troupe/cli`) when there is neither a
 *   container runtime nor `nats-server` / `redis-server` on this machine (its
 *   message says how to install them).
 * @throws LocalServerStartError or a testcontainers error when a server does not start.
 * @example
 * ```ts
 * await using deployment = await createTestDeployment({ agents: myAgent });
 * const outcome = await deployment.sendAndWait("s1", "What is 25 C in F?");
 * expect(outcome).toMatchObject({ status: "completed", text: "25 °C is 77 °F." });
 * ```
 */
export async function createTestDeployment(
  options: TestDeploymentOptions,
): Promise<TestDeployment> {
  const hostCount = checkedInteger("hosts", options.hosts ?? 1, 1, 8);
  const shardCount = checkedInteger("shardCount", options.shardCount ?? 4, 1, 4096);
  const defaultTimeoutMs = checkedInteger(
    "timeoutMs",
    options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const prefix = options.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;

  let servers: TestServers | undefined;
  let redis: Redis | undefined;
  const hosts: ActorHost[] = [];
  let client: TroupeClient | undefined;
  /** The JetStream connection of `exportHistory`, opened on its first call. */
  let history: Promise<{ nats: NatsConnection; jsm: JetStreamManager }> | undefined;
  const stopAll = async () => {
    await client?.close();
    if (history !== undefined) await (await history.catch(() => undefined))?.nats.close();
    await Promise.all(hosts.map(async (host) => await host.stop()));
    if (redis !== undefined) await redis.quit().catch(() => redis?.disconnect());
    await servers?.stop();
  };
  try {
    servers = await startTestServers({ ...options.servers, shardCount });
    const { natsUrl, redisUrl } = servers;
    redis = new Redis(redisUrl, { retryStrategy: redisRetryDelayMs });
    const context: AgentModuleContext = {
      redis,
      natsUrl,
      redisUrl,
      log: (line) => process.stderr.write(`${line}\n`),
    };
    const agents = await agentsOfExport(options.agents, context, "createTestDeployment agents");
    const logger = pino({ level: options.logLevel ?? "warn" });
    const settings: HostSettingsInput = {
      // One host has no one to wait for; several settle their shares as in production.
      ...(hostCount === 1 ? { membershipSettleMs: 0 } : {}),
      ...options.hostSettings,
      prefix,
      shardCount,
    };
    // One after another: each later host joins a membership it can see.
    for (let index = 0; index < hostCount; index++) {
      hosts.push(
        await ActorHost.start({
          nats: natsUrl,
          redis: redisUrl,
          kinds: agentKinds({ agents }),
          settings,
          logger,
        }),
      );
    }
    const connected = await TroupeClient.connect({ natsUrl, prefix });
    client = connected;
    const keys = new RedisKeys(prefix, shardCount);
    const timerRedis = redis;
    const clock = new TestClock((ms) => advanceDurableTimers(timerRedis, keys, shardCount, ms));
    let stopped: Promise<void> | undefined;
    const stop = () => (stopped ??= stopAll());
    const timeout = (given: number | undefined) => given ?? defaultTimeoutMs;

    const deployment: TestDeployment = {
      natsUrl,
      redisUrl,
      prefix,
      shardCount,
      provider: servers.provider,
      agents: agents.map((agent) => agent.name),
      client: connected,
      hosts,
      redis,
      clock,
      async sendAndWait(sessionId, message, sendOptions = {}) {
        const events: EventEnvelope<EventType>[] = [];
        const outcome = await connected.sendAndWait(sessionId, message, {
          timeoutMs: timeout(sendOptions.timeoutMs),
          onEvent: (entry) => {
            if (entry.event.type !== "run.delta") events.push(entry.event);
            sendOptions.onEvent?.(entry);
          },
        });
        return { ...outcome, events } satisfies TestRunOutcome;
      },
      async events(sessionId) {
        return await storedSessionEvents(connected, sessionId, defaultTimeoutMs);
      },
      async expectEvents<const E extends readonly EventExpectation[]>(
        sessionId: string,
        expected: E,
        waitOptions: WaitOptions = {},
      ) {
        const matched = await expectSessionEvents(connected, sessionId, expected, {
          ...waitOptions,
          timeoutMs: timeout(waitOptions.timeoutMs),
        });
        // Each matched event met the expectation at its place, so it has that type.
        return matched as ExpectedEvents<E>;
      },
      async waitForApproval(sessionId, waitOptions = {}) {
        return await waitForPendingApproval(connected, sessionId, {
          ...waitOptions,
          timeoutMs: timeout(waitOptions.timeoutMs),
        });
      },
      async waitForQuestion(sessionId, waitOptions = {}) {
        return await waitForPendingQuestion(connected, sessionId, {
          ...waitOptions,
          timeoutMs: timeout(waitOptions.timeoutMs),
        });
      },
      async approve(sessionId, call, approveOptions = {}) {
        return await connected.awaitVerdict(
          sessionId,
          () =>
            connected.approve(sessionId, toolCallIdOf(call), {
              ...(approveOptions.note === undefined ? {} : { note: approveOptions.note }),
              ...subagentOf(call),
            }),
          { timeoutMs: defaultTimeoutMs },
        );
      },
      async deny(sessionId, call, denyOptions = {}) {
        return await connected.awaitVerdict(
          sessionId,
          () =>
            connected.deny(sessionId, toolCallIdOf(call), {
              ...(denyOptions.reason === undefined ? {} : { reason: denyOptions.reason }),
              ...subagentOf(call),
            }),
          { timeoutMs: defaultTimeoutMs },
        );
      },
      async answer(sessionId, question, text) {
        const questionId = typeof question === "string" ? question : question.questionId;
        return await connected.awaitVerdict(
          sessionId,
          () => connected.answer(sessionId, questionId, text, subagentOf(question)),
          { timeoutMs: defaultTimeoutMs },
        );
      },
      async exportCassette(sessionId, file) {
        const conversation = await deployment.exportHistory(
          { kind: "session", id: sessionId },
          { tree: true },
        );
        // exportHistory opened the connection.
        const { nats } = await history!;
        return await writeHistoryCassette(conversation, {
          file,
          agents,
          transcript: new JetStreamTranscriptReader(
            jetstream(nats),
            streamNames(prefix).transcript,
          ),
          definitions: new RedisAgentDefinitionStore(timerRedis, keys),
        });
      },
      async exportHistory(address, exportOptions = {}) {
        history ??= (async () => {
          const nats = await connect({ servers: natsUrl, name: "troupe-testkit-history" });
          return { nats, jsm: await jetstreamManager(nats) };
        })();
        const { nats, jsm } = await history;
        return await exportHistoryCommand(
          {
            redis: timerRedis,
            jsm,
            nats,
            prefix,
            shardCount,
            kinds: agentKinds({ agents }),
            tree: exportOptions.tree ?? false,
            troupeVersion: TESTKIT_VERSION,
            agents: historyAgentsOf(agents),
          },
          typeof address === "string" ? address : formatAddress(address),
        );
      },
      stop,
      [Symbol.asyncDispose]: stop,
    };
    return deployment;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function toolCallIdOf(call: PendingApproval | string): string {
  return typeof call === "string" ? call : call.toolCallId;
}

/** A wait of a subagent (`sub-…` session) is settled through the parent: the client's routing option. */
function subagentOf(wait: PendingApproval | PendingQuestion | string): {
  subagentSessionId?: string;
} {
  return typeof wait === "string" || wait.subagentSessionId === undefined
    ? {}
    : { subagentSessionId: wait.subagentSessionId };
}

function checkedInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new TroupeError(
      "invalid_options",
      `createTestDeployment: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
      { details: { [name]: value } },
    );
  }
  return value;
}
