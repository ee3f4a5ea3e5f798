import type { ActorAddress, MessageEnvelope, MessageSchemas } from "@troupe/protocol";
import type { AnyStateMachine, EventObject } from "xstate";

/**
 * Runs one effect requested by a machine (`troupe.effect`). The host delivers the
 * resolved value as an `effect.completed` message into the actor's own inbox, or a
 * thrown error as `effect.failed`. At-least-once: after a host crash a pending
 * effect runs again on the new owner, so handlers that write must be idempotent or
 * fenced.
 *
 * @param input - the `input` the machine gave in its request.
 * @param context - abort signal (fires on shutdown, shard hand-over or lease loss)
 *   and identifiers of the request.
 * @returns plain data (it is msgpack-encoded into the inbox).
 */
export type EffectHandler = (input: unknown, context: EffectContext) => Promise<unknown>;

/** What an effect handler knows about the request it serves. */
export interface EffectContext {
  /** Aborted when the host stops running this effect; the result is then discarded. */
  readonly signal: AbortSignal;
  /** The actor that requested the effect. */
  readonly address: ActorAddress;
  /** Stable id of the request (unique per actor). */
  readonly effectId: string;
  /**
   * Host run: how many times hosts have started this effect request, this run
   * included — 1 on the first run, higher when a host resumed it after a crash or
   * a shard hand-over (counted in Redis under `RedisKeys.effectRun`). Not a retry
   * count: the runtime never retries a handler that threw; the machine decides.
   *
   * Counted when first asked (one Redis `INCR`, then the same promise), so an
   * effect whose handler never asks costs no round trip and leaves no key. Ask
   * before doing the work it should number.
   *
   * @returns the host run, from 1.
   * @throws the Redis error when it cannot be counted.
   */
  readonly hostRun: () => Promise<number>;
}

/**
 * Everything a host needs to run one kind of actor.
 *
 * @example
 * const counter = defineActorKind({
 *   kind: "counter",
 *   machine: counterMachine,
 *   version: "1",
 *   messageSchemas: { "counter.increment": z.object({ by: z.number().int() }) },
 * });
 */
export interface ActorKindDefinition {
  /** Actor kind, the first token of the address (`counter` in `counter/c1`). */
  readonly kind: string;
  /** The pure xstate v5 machine. */
  readonly machine: AnyStateMachine;
  /**
   * Machine version recorded in every snapshot (`ActorRecord.machineVersion`).
   * Change it when a stored snapshot of the previous version would be read
   * wrongly by the new machine (context shape, state names); give the kind a
   * {@link ActorKindDefinition.migrate} hook that reads the previous version.
   * A host that meets a snapshot of a version it cannot read refuses the actor
   * (see `migrate`).
   */
  readonly version: string;
  /** Payload schemas of the messages this kind accepts (by message type). */
  readonly messageSchemas: MessageSchemas;
  /** Effect handlers by effect name. */
  readonly effects?: Readonly<Record<string, EffectHandler>>;
  /** Machine input on first activation; defaults to `{ address: { kind, id } }`. */
  readonly input?: (address: ActorAddress) => unknown;
  /**
   * Turns a validated inbox message into the machine event; defaults to
   * `{ ...payload, type, messageId, timestampMs }`.
   */
  readonly toEvent?: (message: MessageEnvelope) => EventObject;
  /**
   * When true, every event the machine receives (commands, timer firings,
   * effect results) also carries `streamTimeMs`: the JetStream stream time of
   * the inbox message being processed, Unix ms — the "now" from which the
   * transition's delays count (`after`, delayed `raise`). Journaled, so a replay
   * sees the same value. For machines that reason about wall-clock time, e.g.
   * schedules (docs/decisions/0044). Default false: events as before.
   */
  readonly withStreamTime?: boolean;
  /**
   * Whose event subjects this actor publishes on; defaults to its own address. A
   * run or tool call actor returns its session so that every event about a
   * session appears under `troupe.session.<id>.events.>`. `message` is the
   * inbox message being processed: an actor that is not created yet (its
   * context says nothing) may answer on the subjects of the actor that sent it
   * (`message.meta.actor`).
   */
  readonly eventAddress?: (
    address: ActorAddress,
    context: unknown,
    message?: MessageEnvelope,
  ) => ActorAddress;
  /**
   * Migration hook for snapshots written by another machine version: returns the
   * persisted xstate snapshot (`{ value, context, … }`) in the shape of this
   * version's machine, or throws for a version it cannot read. Must be pure (the
   * step and replays call it) and must throw for versions it does not know —
   * in particular newer ones: during a rolling deploy an old host meets
   * snapshots the new version wrote.
   *
   * Without a hook, or when it throws, the host **refuses** the actor
   * (`UnknownMachineVersionError`, code `unknown_machine_version`): no dead
   * letter, no new generation, the messages wait un-acked in the inbox, the
   * host logs an error and publishes an alert on
   * `_troupe.alert.version.<kind>.<id>` once per retry (1 s → 30 s) and counts
   * it in `ActorHost.versionRefusals`, until a host that reads the snapshot owns
   * the shard (docs/decisions/0022). The migrated state is written
   * back with the new version at the next commit.
   *
   * @param persistedState - the stored xstate persisted snapshot.
   * @param fromVersion - the `version` that wrote it.
   * @returns the persisted snapshot in this version's shape.
   * @throws anything, to refuse: the actor waits, nothing is lost.
   */
  readonly migrate?: (persistedState: unknown, fromVersion: string) => unknown;
  /**
   * Called with a step's outbox items once JetStream stored them all (after the
   * snapshot write), on the host that published them; also for the outbox an
   * activation publishes again. Synchronous; a throw is logged and ignored (the
   * items are stored either way). Lets a kind keep a cache of what its actors
   * appended, e.g. the agents' transcript read cache (docs/decisions/0016).
   */
  readonly onOutboxPublished?: (items: readonly PublishedOutboxItem[]) => void;
  /**
   * Called when an actor of this kind was passivated on this host (dropped
   * from memory after `passivateAfterMs` idle). Synchronous; a throw is logged
   * and ignored. Lets a kind drop what it cached for the actor, e.g. the
   * agents' transcript read cache (docs/decisions/0016).
   */
  readonly onPassivated?: (address: ActorAddress) => void;
  /**
   * Called once when the host stops, after its effects finished (or were
   * given up) and its leases were released, before it closes its connections:
   * release what the kind's effects hold, e.g. the agents' MCP server
   * connections and child processes (docs/decisions/0024). A throw is logged and ignored.
   */
  readonly dispose?: () => Promise<void>;
}

/**
 * What {@link ActorKindDefinition.onOutboxPublished} sees of one stored outbox
 * item (the fields of the step's `OutboxItem` it needs): its subject, JetStream
 * `Nats-Msg-Id`, `Content-Type` and encoded body.
 */
export interface PublishedOutboxItem {
  readonly subject: string;
  readonly messageId: string;
  readonly contentType: string;
  readonly body: Uint8Array;
}

/**
 * Identity helper that gives `ActorKindDefinition` literals their type.
 *
 * @param definition - the kind definition.
 * @returns the same object.
 */
export function defineActorKind<T extends ActorKindDefinition>(definition: T): T {
  return definition;
}
