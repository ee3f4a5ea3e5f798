/**
 * The names of Troupe's OpenTelemetry spans, attributes and metrics,
 * in one place: the libraries emit them, `infra/` dashboards and alert rules
 * query them, and tests assert them. Changing one is a breaking change for
 * operators' dashboards.
 *
 * Conventions: span names follow the OpenTelemetry messaging and GenAI
 * semantic conventions (`{operation} {target}`, low cardinality:
 * https://opentelemetry.io/docs/specs/semconv/messaging/messaging-spans/ and
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/); Troupe's
 * own attributes and metrics are under `troupe.`; metric units are UCUM
 * (`s`, `{message}`), as https://opentelemetry.io/docs/specs/semconv/general/metrics/
 * asks. Prometheus sees `troupe.messages.processed` as
 * `troupe_messages_processed_total` (OpenTelemetry's Prometheus exporter 0.223
 * replaces dots with `_` and adds `_total` to counters, but no unit suffix:
 * `troupe.step.duration` is `troupe_step_duration_bucket`; see
 * `test/src/support/prometheus-names.ts` and docs/operating/observability.md).
 */

/** Instrumentation scope of every Troupe tracer and meter. */
export const TELEMETRY_SCOPE = "troupe";

/** Span names. `kind` is an actor kind (`session`, `run`, `tool`, …), never an id. */
export const SPAN_NAMES = {
  /** Client publishes a message to an actor's inbox (PRODUCER). */
  send: (kind: string) => `send ${kind}`,
  /** Host processes one inbox message of an actor (CONSUMER): the step and its commit. */
  process: (kind: string) => `process ${kind}`,
  /** Host runs one effect of an actor (INTERNAL), parent of the handler's spans. */
  effect: (effect: string) => `effect ${effect}`,
  /** Host publishes the outbox of one committed step (PRODUCER). */
  publishOutbox: "publish outbox",
  /** A model call (CLIENT), GenAI conventions. */
  chat: (model: string) => `chat ${model}`,
  /** A tool call's execution (INTERNAL), GenAI conventions. */
  executeTool: (tool: string) => `execute_tool ${tool}`,
} as const;

/** Span and metric attribute keys. */
export const ATTRIBUTES = {
  // OpenTelemetry semantic conventions
  messagingSystem: "messaging.system", // "nats"
  messagingOperationType: "messaging.operation.type", // "send" | "process"
  messagingDestination: "messaging.destination.name", // NATS subject
  messagingMessageId: "messaging.message.id", // Nats-Msg-Id
  messagingBatchCount: "messaging.batch.message_count",
  genAiOperation: "gen_ai.operation.name", // "chat" | "execute_tool"
  genAiProvider: "gen_ai.provider.name",
  genAiRequestModel: "gen_ai.request.model",
  genAiResponseModel: "gen_ai.response.model",
  genAiInputTokens: "gen_ai.usage.input_tokens",
  genAiOutputTokens: "gen_ai.usage.output_tokens",
  genAiFinishReasons: "gen_ai.response.finish_reasons", // string[]
  genAiTokenType: "gen_ai.token.type", // "input" | "output" (metrics)
  genAiToolName: "gen_ai.tool.name",
  genAiToolCallId: "gen_ai.tool.call.id",
  errorType: "error.type",
  // Troupe
  actorKind: "troupe.actor.kind",
  actorId: "troupe.actor.id",
  inboxSeq: "troupe.inbox.seq",
  stepOutcome: "troupe.step.outcome", // StepResult outcome, "rejected", "conflict"
  generation: "troupe.snapshot.generation",
  shard: "troupe.shard",
  hostId: "troupe.host.id",
  effectName: "troupe.effect.name",
  effectId: "troupe.effect.id",
  effectOutcome: "troupe.effect.outcome", // "completed" | "failed" | "cancelled" | "given_up"
  toolEffectClass: "troupe.tool.effect_class", // ToolEffectClass
  toolOutcome: "troupe.tool.outcome", // "succeeded" | "failed" | "outcome_unknown" | …
  toolAttempt: "troupe.tool.attempt", // 1-based execution attempt
  leaseLossReason: "troupe.lease.loss_reason",
  deadLetterCode: "troupe.dead_letter.code",
} as const;

/**
 * Metric instruments: name, instrument type, unit, and the attributes each
 * carries. Durations are histograms in seconds.
 */
export const METRICS = {
  messagesProcessed: {
    name: "troupe.messages.processed",
    type: "counter",
    unit: "{message}",
    attributes: [ATTRIBUTES.actorKind, ATTRIBUTES.stepOutcome],
  },
  stepDuration: {
    name: "troupe.step.duration",
    type: "histogram",
    unit: "s",
    attributes: [ATTRIBUTES.actorKind],
  },
  commitConflicts: {
    name: "troupe.commit.conflicts",
    type: "counter",
    unit: "{conflict}",
    attributes: [ATTRIBUTES.actorKind],
  },
  leaseAcquisitions: {
    name: "troupe.lease.acquisitions",
    type: "counter",
    unit: "{lease}",
    attributes: [],
  },
  leaseLosses: {
    name: "troupe.lease.losses",
    type: "counter",
    unit: "{lease}",
    attributes: [ATTRIBUTES.leaseLossReason],
  },
  shardsOwned: { name: "troupe.shards.owned", type: "gauge", unit: "{shard}", attributes: [] },
  effectDuration: {
    name: "troupe.effect.duration",
    type: "histogram",
    unit: "s",
    attributes: [ATTRIBUTES.effectName, ATTRIBUTES.effectOutcome],
  },
  /** GenAI semantic-conventions metric (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-metrics/). */
  tokenUsage: {
    name: "gen_ai.client.token.usage",
    type: "histogram",
    unit: "{token}",
    attributes: [
      ATTRIBUTES.genAiOperation,
      ATTRIBUTES.genAiRequestModel,
      ATTRIBUTES.genAiTokenType,
    ],
  },
  toolCalls: {
    name: "troupe.tool.calls",
    type: "counter",
    unit: "{call}",
    attributes: [ATTRIBUTES.toolEffectClass, ATTRIBUTES.toolOutcome],
  },
  approvalsPending: {
    name: "troupe.approvals.pending",
    type: "gauge",
    unit: "{approval}",
    attributes: [],
  },
  deadLetters: {
    name: "troupe.dead_letters",
    type: "counter",
    unit: "{message}",
    attributes: [ATTRIBUTES.actorKind, ATTRIBUTES.deadLetterCode],
  },
  inboxLag: {
    name: "troupe.inbox.lag",
    type: "gauge",
    unit: "{message}",
    attributes: [ATTRIBUTES.shard],
  },
  timersArmed: { name: "troupe.timers.armed", type: "gauge", unit: "{timer}", attributes: [] },
  /**
   * Node.js runtime semantic-conventions metrics
   * (https://opentelemetry.io/docs/specs/semconv/runtime/nodejs-metrics/): the
   * host's event-loop delay over its latest 5 s window (docs/decisions/0047).
   */
  eventLoopDelayP50: {
    name: "nodejs.eventloop.delay.p50",
    type: "gauge",
    unit: "s",
    attributes: [],
  },
  eventLoopDelayP99: {
    name: "nodejs.eventloop.delay.p99",
    type: "gauge",
    unit: "s",
    attributes: [],
  },
  eventLoopDelayMax: {
    name: "nodejs.eventloop.delay.max",
    type: "gauge",
    unit: "s",
    attributes: [],
  },
  activations: {
    name: "troupe.actor.activations",
    type: "counter",
    unit: "{activation}",
    attributes: [ATTRIBUTES.actorKind],
  },
  passivations: {
    name: "troupe.actor.passivations",
    type: "counter",
    unit: "{passivation}",
    attributes: [ATTRIBUTES.actorKind],
  },
} as const;

/** One entry of {@link METRICS}. */
export type MetricDefinition = (typeof METRICS)[keyof typeof METRICS];
