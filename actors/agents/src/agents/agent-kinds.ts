import {
  AGENT_RESOLVE_EFFECT,
  FORK_RESOLVE_EFFECT,
  MODEL_CALL_EFFECT,
  TOOL_EXECUTE_EFFECT,
} from "@troupe/protocol";
import type { ActorAddress, MessageEnvelope } from "@troupe/protocol";
import {
  runMachine,
  runMessageSchemas,
  sessionMachine,
  sessionMessageSchemas,
  toolCallMachine,
  toolMessageSchemas,
  type RunContext,
  type SessionContext,
  type ToolCallContext,
} from "@troupe/machines";
import {
  JetStreamExecutionClaims,
  withExecutionClaims,
  RedisIdempotencyRecordStore,
  RedisToolResultStore,
  createToolExecuteHandler,
  McpToolCatalog,
  ObjectStoreMediaStore,
  type ObjectStoreMediaStoreOptions,
  hostMediaStoreOptions,
} from "@troupe/tools/internal";
import type { ActorKindDefinition, HostServices, PublishedOutboxItem } from "@troupe/runtime";
import { RedisScript } from "@troupe/runtime/internal";
import {
  createDeltaPublisher,
  createToolProgressPublisher,
} from "../transcript/delta-publisher.js";
import {
  JetStreamTranscriptReader,
  observeTranscriptEntries,
} from "../transcript/jetstream-transcript-reader.js";
import { AgentRegistry } from "./agent-registry.js";
import { createAgentResolveHandler } from "./agent-resolve-handler.js";
import { createForkResolveHandler } from "./fork-resolve-handler.js";
import type { AgentDefinition } from "./agent-definition.js";
import {
  AGENT_MACHINES_VERSION,
  migrateRunSnapshot,
  migrateSessionSnapshot,
  migrateToolCallSnapshot,
} from "./machine-versions.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { RedisAgentDefinitionStore } from "./definition-store.js";
import { RedisModelCallSlots } from "./model-call-slots.js";
import { SpendGuard, RedisSpendLedger, type Environment } from "@troupe/models/internal";
import { watchPendingApprovals } from "./approvals-pending.js";
import { JetStreamScheduleIndex } from "../schedules/jetstream-schedule-index.js";
import { scheduleKind, scheduleMachineKind } from "../schedules/schedule-kind.js";

/** How long the stream attempt counter of a model call is kept after its last stream, in ms: 7 days. */
const STREAM_ATTEMPT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The next stream attempt of a model call and its key's expiry, in one round
 * trip (an `INCR` and a `PEXPIRE` were two).
 * KEYS: the call's stream-attempt key; ARGV: time to live in ms. Returns the attempt (≥ 1).
 */
const nextStreamAttemptScript = new RedisScript(`
local attempt = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return attempt
`);

export { AGENT_MACHINES_VERSION } from "./machine-versions.js";

/** Options of {@link agentKinds}. */
export interface AgentKindsOptions {
  /** The agents this host serves (at least one). */
  readonly agents: readonly AgentDefinition[];
  /** Agent for sessions that name none; default: the first. */
  readonly defaultAgent?: string;
  /** Environment for API keys and `TROUPE_MODEL`; default `process.env`. */
  readonly env?: Environment;
  /**
   * The media Object Store (docs/capabilities/media.md): bucket (default
   * `<PREFIX>_MEDIA`), `retentionMs` (default 7 days), `replicas` and
   * `placement` (default: the host's `streamReplicas` and `streamPlacement`,
   * else 1 replica) of a bucket this host creates, `limits` on media tools return.
   */
  readonly media?: Partial<ObjectStoreMediaStoreOptions>;
}

/**
 * The actor kinds that run agents: `session/<sessionId>` (admission, policies,
 * one run at a time), `run/<sessionId>` (the agent loop of that session's runs,
 * one after another) and `tool/<toolActorId>` (one tool call, behind the idempotency
 * record of its idempotency key), with the `agent.resolve` effect wired to the
 * agent registry, the `model.call` effect to the AI SDK and the `tool.execute`
 * effect to the agents' tools.
 * Run events are published on the session's subjects
 * (`troupe.session.<id>.events.<type>`), deltas as transient `run.delta` events.
 *
 * @param options - agents and the default agent.
 * @returns a kind factory for `ActorHost.start({ kinds })`.
 * @throws InvalidAgentError (from the factory) for duplicate names or an unknown default.
 * @example
 * const host = await ActorHost.start({ nats, redis, kinds: agentKinds({ agents: [support] }) });
 */
export function agentKinds(
  options: AgentKindsOptions,
): (services: HostServices) => ActorKindDefinition[] {
  return (services) => {
    // The agents' MCP servers connect in the background from here on; an
    // unreachable one is logged and retried, never fatal.
    const mcp = new McpToolCatalog({ logger: services.logger });
    const agents = new AgentRegistry(options.agents, {
      ...(options.defaultAgent === undefined ? {} : { defaultAgent: options.defaultAgent }),
      mcp,
    });
    mcp.start(agents.all);
    // `troupe.approvals.pending`, counted from the shards' timer sets.
    const approvals = watchPendingApprovals(services.redis, services.keys);
    const publishProgress = createToolProgressPublisher(services.nats, services.streams.deltas);
    const publishDelta = createDeltaPublisher(services.nats, services.streams.deltas);
    const transcript = new JetStreamTranscriptReader(services.js, services.streams.transcript);
    // Entries this host's sessions and runs append go straight into the read
    // cache: a model call on this host does not read them back.
    const onOutboxPublished = (items: readonly PublishedOutboxItem[]) =>
      observeTranscriptEntries(transcript, items);
    // …and leave it with the session or run (a run actor's id is its session's).
    const onPassivated = (address: ActorAddress) => transcript.forget(address.id);
    // Images and files of user messages and tool results, by digest.
    // A bucket this host creates is replicated like the streams (decision 0032).
    const media = new ObjectStoreMediaStore(
      services.js,
      hostMediaStoreOptions(options.media, services),
    );
    const modelCall = createModelCallHandler({
      agents,
      transcript,
      publishDelta: (delta) => publishDelta(delta),
      media,
      onPublishError: (error) =>
        services.logger.debug({ err: error }, "a run.delta could not be published"),
      ...(options.env === undefined ? {} : { env: options.env }),
      // Deltas carry a stream attempt that grows across the run's retries and
      // hosts' re-runs of the same model call, so a client can drop superseded text.
      streamAttempt: async ({ sessionId, runId, modelCallIndex }) => {
        const key = services.keys.modelStreamAttempt(sessionId, `${runId}.m${modelCallIndex}`);
        return Number(
          await nextStreamAttemptScript.run(services.redis, [key], [STREAM_ATTEMPT_TTL_MS]),
        );
      },
      // Spend limits across hosts: reservations and spend in Redis.
      spend: new SpendGuard(new RedisSpendLedger(services.redis, services.keys)),
      // Concurrency limits across hosts: the agents' slots in Redis (docs/decisions/0058).
      slots: new RedisModelCallSlots(services.redis, services.keys),
      // Pinned definitions: every host of the deployment reads the records (docs/decisions/0055).
      definitions: new RedisAgentDefinitionStore(services.redis, services.keys),
    });
    const [pureSession, pureRun, pureTool] = agentMachineKinds();
    const session: ActorKindDefinition = {
      ...pureSession!,
      // The session learns an agent's settings (policy, model-call limit) and
      // whether it is served through this effect, whose result is journaled:
      // replaying a session never consults the registry (docs/decisions/0008).
      effects: {
        [AGENT_RESOLVE_EFFECT]: createAgentResolveHandler(agents),
        // A fork's point, read from the source's stored events.
        [FORK_RESOLVE_EFFECT]: createForkResolveHandler({
          agents,
          js: services.js,
          eventsStream: services.streams.events,
        }),
      },
      onOutboxPublished,
      onPassivated,
    };
    const run: ActorKindDefinition = {
      ...pureRun!,
      effects: { [MODEL_CALL_EFFECT]: modelCall },
      onOutboxPublished,
      onPassivated,
    };
    const tool: ActorKindDefinition = {
      ...pureTool!,
      effects: {
        [TOOL_EXECUTE_EFFECT]: createToolExecuteHandler({
          toolsOf: async (name) => {
            await agents.ready(name);
            return agents.get(name).tools;
          },
          publishProgress,
          // At-most-once calls are also claimed in the claims stream before they
          // run: Redis may lose the record of a started call.
          idempotencyRecords: withExecutionClaims(
            new RedisIdempotencyRecordStore(services.redis, services.keys),
            new JetStreamExecutionClaims(services.js, services.jsm, services.streams.claims),
          ),
          results: new RedisToolResultStore(services.redis, services.keys),
          media,
          mediaLimits: options.media?.limits,
          logger: services.logger,
        }),
      },
      dispose: () => {
        approvals.stop();
        return mcp.close();
      },
    };
    // Schedules send user messages to sessions (docs/capabilities/schedules.md).
    const schedule = scheduleKind(
      new JetStreamScheduleIndex(
        services.js,
        services.jsm,
        services.keys.prefix,
        services.streams.events,
      ),
    );
    return [session, run, tool, schedule];
  };
}

/**
 * The session that sent an inbox message (`meta.actor` = `session/<id>`), or
 * undefined for a message from elsewhere.
 */
function senderSession(message: MessageEnvelope | undefined): ActorAddress | undefined {
  const sender = message?.meta.actor;
  if (sender === undefined || !sender.startsWith("session/")) return undefined;
  return { kind: "session", id: sender.slice("session/".length) };
}

/**
 * The agent actor kinds as pure definitions — machine, version, migrations,
 * message schemas and event addresses, without effect handlers or hooks — in
 * the order `[session, run, tool, schedule]` (the schedule kind). What a replay needs and nothing that does
 * IO: `replayHistory` uses them by default, and {@link agentKinds} adds the
 * effects to them, so a host and a replay run the same step (docs/decisions/0020).
 *
 * @returns `[session, run, tool]` kind definitions at {@link AGENT_MACHINES_VERSION}, then the schedule kind.
 */
export function agentMachineKinds(): ActorKindDefinition[] {
  // A subagent's session, its run and its tool calls publish on the
  // delegating session's subjects (meta.actor still names each actor).
  const session: ActorKindDefinition = {
    kind: "session",
    machine: sessionMachine,
    eventAddress: (address, context) => {
      const parent = (context as SessionContext | undefined)?.parent;
      return parent === undefined ? address : { kind: "session", id: parent.sessionId };
    },
    version: AGENT_MACHINES_VERSION,
    migrate: migrateSessionSnapshot,
    messageSchemas: sessionMessageSchemas,
  };
  const run: ActorKindDefinition = {
    kind: "run",
    machine: runMachine,
    version: AGENT_MACHINES_VERSION,
    migrate: migrateRunSnapshot,
    messageSchemas: runMessageSchemas,
    eventAddress: (address, context) => ({
      kind: "session",
      id: (context as RunContext | undefined)?.parentSessionId ?? address.id,
    }),
  };
  // One actor per tool call; its events appear under the session's subjects.
  const tool: ActorKindDefinition = {
    kind: "tool",
    machine: toolCallMachine,
    version: AGENT_MACHINES_VERSION,
    migrate: migrateToolCallSnapshot,
    messageSchemas: toolMessageSchemas,
    eventAddress: (address, context, message) => {
      const { sessionId, call } = context as ToolCallContext;
      if (call?.parentSessionId !== undefined) {
        return { kind: "session", id: call.parentSessionId };
      }
      if (sessionId !== undefined) return { kind: "session", id: sessionId };
      // No call reached this actor: a command the session forwarded for an
      // unknown id is answered on that session's subjects.
      return senderSession(message) ?? address;
    },
  };
  return [session, run, tool, scheduleMachineKind()];
}
