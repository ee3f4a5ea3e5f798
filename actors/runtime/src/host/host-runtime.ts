import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import type { RedisConnection, LeaseStore, SnapshotStore } from "@troupe/stores/internal";
import type { Logger } from "pino";
import type { Clock, ActorKindDefinition } from "@troupe/step";
import type { PriorityClass, StreamNames } from "@troupe/protocol";
import type { HostMetrics } from "../observability/host-metrics.js";
import type { EffectRunner } from "./effect-runner.js";
import type { HostSettings } from "./host-options.js";
import type { OutboxPublisher } from "./outbox-publisher.js";
import type { VersionRefusals } from "./version-refusals.js";

/** What the parts of one host share: settings, clients, stores, the clock and the concurrency limit. */
export interface HostRuntime {
  readonly settings: HostSettings;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly redis: RedisConnection;
  readonly streams: StreamNames;
  readonly snapshots: SnapshotStore;
  readonly leases: LeaseStore;
  readonly kinds: ReadonlyMap<string, ActorKindDefinition>;
  readonly publisher: OutboxPublisher;
  readonly effects: EffectRunner;
  readonly logger: Logger;
  /** Every "now" of the host (lease deadlines, passivation, timestamps it writes). */
  readonly clock: Clock;
  /**
   * Runs `task` within the host's `maxConcurrency`, higher scheduling classes
   * first (`PriorityScheduler`, docs/decisions/0057); `priority` default `default`.
   */
  readonly limit: <T>(task: () => Promise<T>, priority?: PriorityClass) => Promise<T>;
  /** Actors refused for their machine version: counted, logged, alerted (docs/decisions/0022). */
  readonly refusals: VersionRefusals;
  /** The host's OpenTelemetry instruments (no-ops without a meter provider). */
  readonly metrics: HostMetrics;
}
