import type { NatsConnection } from "@nats-io/transport-node";
import { RedisKeys, streamNames } from "@troupe/protocol/internal";
import { RedisSnapshotStore } from "@troupe/runtime/internal";
import { replayActor, type ActorKindDefinition, type HostServices } from "@troupe/runtime";
import { InvalidAddressError, formatAddress, parseAddress } from "@troupe/protocol";
import { DEFAULT_DEPLOYMENT_PREFIX, type AdminDeps } from "./admin-deps.js";
import { toJsonValue, type JsonValue } from "./to-json-value.js";

/**
 * The actor kinds a host serves, in any of the forms a host is given them: a
 * list, a map by kind, or a kind factory such as `agentKinds({ agents })`.
 */
export type ActorKindSource =
  | readonly ActorKindDefinition[]
  | ReadonlyMap<string, ActorKindDefinition>
  | ((services: HostServices) => readonly ActorKindDefinition[]);

/** Options of {@link replayActorCommand}: {@link AdminDeps} plus the kinds. */
export interface ReplayActorCommandOptions extends AdminDeps {
  /** The kinds the host serves (the same definitions, so the step is the same). */
  readonly kinds: ActorKindSource;
  /**
   * NATS connection handed to a kind factory (`HostServices.nats`). Required
   * when `kinds` is a function; effects never run during a replay, so nothing is
   * published on it.
   */
  readonly nats?: NatsConnection;
}

/**
 * What a replay found, ready to print. JSON-serializable.
 *
 * Shape: `{ actor, reproduces, messagesReplayed, storedGeneration,
 * replayedGeneration, difference }`.
 */
export interface ReplayCommandReport {
  /** `kind/id`. */
  readonly actor: string;
  /** True when re-running the journal gives the stored snapshot. */
  readonly reproduces: boolean;
  /** Journal messages read and run through the step. */
  readonly messagesReplayed: number;
  /** Latest stored generation; undefined when the actor was never written. */
  readonly storedGeneration: number | undefined;
  /** Generation the replay reached; undefined when no message was committed. */
  readonly replayedGeneration: number | undefined;
  /**
   * The first difference: at the oldest kept generation that differs, else at the
   * latest; `path` is JSON-pointer-like (`/state/context/count`). Undefined when
   * the replay reproduces the snapshot.
   */
  readonly difference:
    | {
        readonly generation: number;
        readonly path: string;
        readonly stored: JsonValue;
        readonly replayed: JsonValue;
      }
    | undefined;
  /**
   * Set when the stored snapshot was written by another machine version than
   * the kinds given run (docs/decisions/0022).
   */
  readonly versionMismatch?: { readonly storedVersion: string; readonly replayVersion: string };
  /**
   * Set when the step refused a message because the kind cannot read a
   * snapshot of that version (docs/decisions/0022): the replay stopped at inbox sequence
   * `seq`; `message` says what to do.
   */
  readonly refusal?: {
    readonly seq: number;
    readonly storedVersion: string;
    readonly replayVersion: string;
    readonly message: string;
  };
}

/**
 * Replays an actor's journal (`replayActor` from `@troupe/runtime`) with the kinds
 * a host serves and returns a report ready to print or serialize. Read-only.
 *
 * @param options - Redis, JetStream manager, prefix (default `"troupe"`), shard
 *   count, the kinds, and a NATS connection when `kinds` is a factory.
 * @param address - `kind/id`, e.g. `session/demo-1`.
 * @returns the report; `reproduces: false` with a `difference` when they differ
 *   (also when the journal lost early messages to retention), with a
 *   `refusal` when the step refused a snapshot of a machine version the kinds
 *   cannot read, and `versionMismatch` when the stored snapshot is of another
 *   version than the kinds given (docs/decisions/0022).
 * @throws InvalidAddressError when `address` is not a valid `kind/id` (field
 *   `address`), or names a kind the given kinds do not define (field `kind`).
 * @throws TypeError when `kinds` is a factory and no `nats` connection is given.
 * @example
 * const report = await replayActorCommand(
 *   { redis, jsm, nats, shardCount: 64, kinds: agentKinds({ agents: [assistant] }) },
 *   "session/demo-1",
 * );
 * console.log(formatReplayReport(report));
 */
export async function replayActorCommand(
  options: ReplayActorCommandOptions,
  address: string,
): Promise<ReplayCommandReport> {
  const parsed = parseAddress(address);
  const prefix = options.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;
  const keys = new RedisKeys(prefix, options.shardCount);
  const streams = streamNames(prefix);
  const definitions = resolveKinds(options, keys, streams);
  const definition = definitions.get(parsed.kind);
  if (definition === undefined) {
    throw new InvalidAddressError(
      `no actor kind "${parsed.kind}" among the kinds given (known: ${[...definitions.keys()].join(", ")})`,
      "kind",
      parsed.kind,
    );
  }
  const report = await replayActor(
    {
      js: options.jsm.jetstream(),
      jsm: options.jsm,
      streams,
      shardCount: options.shardCount,
      ...(options.earlierShardCounts === undefined
        ? {}
        : { earlierShardCounts: options.earlierShardCounts }),
      snapshots: new RedisSnapshotStore(options.redis, keys),
      definition,
    },
    parsed,
  );
  return {
    actor: formatAddress(parsed),
    reproduces: report.reproduces,
    messagesReplayed: report.messagesRead,
    storedGeneration: report.storedGeneration,
    replayedGeneration: report.replayedGeneration,
    difference:
      report.divergence === undefined
        ? undefined
        : {
            generation: report.divergence.generation,
            path: report.divergence.path,
            stored: toJsonValue(report.divergence.expected),
            replayed: toJsonValue(report.divergence.actual),
          },
    ...(report.versionMismatch === undefined ? {} : { versionMismatch: report.versionMismatch }),
    ...(report.refusal === undefined
      ? {}
      : {
          refusal: {
            seq: report.refusal.seq,
            storedVersion: report.refusal.error.storedVersion,
            replayVersion: report.refusal.error.hostVersion,
            message: report.refusal.error.message,
          },
        }),
  };
}

/**
 * The kinds of {@link ActorKindSource} as a map by kind (a factory is called
 * with the admin connections; its effect handlers never run here).
 *
 * @param options - the kinds, and `nats` when they are a factory.
 * @param keys - the deployment's Redis keys.
 * @param streams - the deployment's stream names.
 * @returns the definitions by kind.
 * @throws TypeError when `kinds` is a factory and no `nats` connection is given.
 */
export function resolveKinds(
  options: Pick<ReplayActorCommandOptions, "kinds" | "nats" | "jsm" | "redis">,
  keys: RedisKeys,
  streams: ReturnType<typeof streamNames>,
): ReadonlyMap<string, ActorKindDefinition> {
  const { kinds } = options;
  if (kinds instanceof Map) return kinds;
  let list: readonly ActorKindDefinition[];
  if (typeof kinds === "function") {
    if (options.nats === undefined) {
      throw new TypeError("replayActorCommand: a kind factory needs the `nats` option");
    }
    list = kinds({
      nats: options.nats,
      js: options.jsm.jetstream(),
      jsm: options.jsm,
      redis: options.redis,
      streams,
      keys,
      logger: silentLogger,
    });
  } else {
    list = kinds as readonly ActorKindDefinition[];
  }
  return new Map(list.map((definition) => [definition.kind, definition]));
}

// Kind factories keep a logger for their effect handlers, which a replay never
// runs; this one drops everything (services does not depend on pino).
const noop = (): void => undefined;
const silentLogger = {
  level: "silent",
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  silent: noop,
  child: () => silentLogger,
  isLevelEnabled: () => false,
} as unknown as HostServices["logger"];
