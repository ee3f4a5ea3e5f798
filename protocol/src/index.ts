/**
 * @troupe/protocol — the wire contract of Troupe, with no IO.
 *
 * - **Addresses**: actors are `kind/id`, both NATS-token safe (`actorAddress`,
 *   `parseAddress`, `formatAddress`); a tool call's actor id and idempotency
 *   key derive from its session, run and call ids (`toolActorId`,
 *   `idempotencyKeyOf`).
 * - **Subjects**: every subject is built and parsed here: public inboxes
 *   `troupe.<kind>.<id>.in`, events `troupe.<kind>.<id>.events.<eventType>`,
 *   internal shard inboxes and dead letters under `_troupe.`, the server-side
 *   inbox mapping and the shard hash (`shardOf`).
 * - **Envelopes v1**: message and event envelopes and the zod schema of every
 *   payload type (`builtinMessageSchemas`, `builtinEventSchemas`).
 * - **Effects v1**: the input and output schema of every effect the built-in
 *   machines request (`model.call`, `tool.execute`, `agent.resolve`), owned
 *   here so that the machine that requests an effect and the host that
 *   handles it share one contract.
 * - **Codecs**: pure bytes in, bytes out; msgpack by default, JSON for plain
 *   publishers; decoding validates and fails only with `DecodeError` or
 *   `PayloadTooLargeError`.
 * - **Errors**: `TroupeError` and its subclasses, and `WireError` for errors that
 *   cross NATS.
 *
 * Addresses, subjects, the Redis key table, errors and telemetry names are
 * `@troupe/addressing`'s, re-exported here whole.
 *
 * The README of this package is the written contract: token layouts, field units,
 * type tables and the versioning rules.
 *
 * @packageDocumentation
 */
export * from "@troupe/addressing";

export {
  ENVELOPE_VERSION,
  MAX_TEXT_LENGTH,
  commandNoteSchema,
  commandTextSchema,
  identifierSchema,
  timestampMsSchema,
  tokenCountSchema,
  toolCallIdSchema,
} from "./v1/field-schemas.js";
export type { PayloadOf, PayloadSchemas } from "./v1/payload-of.js";
export {
  messageEnvelopeSchema,
  messageMetaSchema,
  type MessageEnvelope,
  type MessageMeta,
} from "./v1/message-envelope.js";
export {
  eventEnvelopeSchema,
  eventMetaSchema,
  type EventEnvelope,
  type EventMeta,
} from "./v1/event-envelope.js";
export {
  builtinMessageSchemas,
  hostMessageSchemas,
  type BuiltinMessageSchemas,
  type KnownMessageSchemas,
  type MessageSchemas,
  type MessageType,
  PUBLIC_COMMAND_TYPES,
  VERDICT_COMMAND_TYPES,
  type VerdictCommandType,
} from "./v1/message-schemas.js";
export {
  builtinEventSchemas,
  type BuiltinEventSchemas,
  type EventSchemas,
  type EventType,
} from "./v1/event-schemas.js";
export * from "./v1/messages/session-commands.js";
export * from "./v1/messages/schedule-commands.js";
export * from "./v1/messages/host-messages.js";
export * from "./v1/messages/run-messages.js";
export * from "./v1/messages/tool-messages.js";
export * from "./v1/tool-effect-class.js";
export * from "./v1/priority-class.js";
export * from "./v1/tool-policy.js";
export * from "./v1/tool-call-status.js";
export * from "./v1/transcript-entry.js";
export * from "./v1/media-ref.js";
export * from "./v1/media-limits.js";
export * from "./v1/compaction/summary-entry.js";
export * from "./v1/compaction/compact-messages.js";
export * from "./v1/compaction/compaction-result.js";
export * from "./v1/events/compaction-events.js";
export * from "./v1/events/session-events.js";
export * from "./v1/events/schedule-events.js";
export * from "./v1/effects/schedule-index.js";
export * from "./v1/events/command-events.js";
export * from "./v1/events/message-events.js";
export * from "./v1/events/run-events.js";
export * from "./v1/events/run-model-fallback.js";
export * from "./v1/events/tool-events.js";
export * from "./v1/events/question-events.js";
export * from "./v1/events/subagent-events.js";
export * from "./v1/events/budget-events.js";
// Effects: the input and output of every effect a built-in machine requests,
// one schema each, shared by the machine that requests it and its handler.
export * from "./v1/effects/model-call.js";
export * from "./v1/effects/agent-definition-pin.js";
export * from "./v1/effects/model-fallback.js";
export * from "./v1/effects/model-call-delta.js";
export * from "./v1/effects/tool-execute.js";
export * from "./v1/effects/agent-resolve.js";
export * from "./v1/fork/transcript-base.js";
export * from "./v1/fork/session-fork.js";
export * from "./v1/fork/fork-resolve.js";
export { parseEffectInput } from "./v1/effects/parse-effect-input.js";

export {
  CONTENT_TYPE_HEADER,
  DEFAULT_CODEC,
  JSON_CONTENT_TYPE,
  MSGPACK_CONTENT_TYPE,
  codecForContentType,
  contentTypeFor,
  sniffCodec,
  type CodecName,
} from "./codec/content-type.js";
export { DEFAULT_MAX_PAYLOAD_BYTES } from "./codec/payload-limit.js";
export { MAX_NESTING_DEPTH, type WireValue } from "./codec/wire-value.js";
export type { DecodeBodyOptions } from "./codec/decode-body.js";
export type { EncodeOptions, EncodedEnvelope } from "./codec/encode-body.js";
export { encodeMessage } from "./codec/encode-message.js";
export { encodeEvent } from "./codec/encode-event.js";
export * from "./codec/transcript-codec.js";
export {
  decodeMessage,
  type DecodeMessageOptions,
  type MessageDefaults,
} from "./codec/decode-message.js";
export { decodeEvent, type DecodeEventOptions } from "./codec/decode-event.js";
export { validateMessagePayload } from "./codec/validate-message-payload.js";
export { EXPECTED_BODY } from "./codec/decode-body.js";
export { describeLeadingBytes } from "./codec/describe-bytes.js";

// Host actions: how a pure machine asks the actor host for IO (effects, sends,
// events, log appends, effect cancellation), and the event it gets from an inbox message.
export * from "./host-actions/host-actions.js";
export * from "./host-actions/host-action-creators.js";
export * from "./host-actions/inbox-event.js";

export {
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  historyActorSchema,
  historyAgentSchema,
  historyGenerationSchema,
  historyJournalEntrySchema,
  historyOutboxItemSchema,
  historyProducerSchema,
  troupeHistorySchema,
  type HistoryActor,
  type HistoryAgent,
  type HistoryGeneration,
  type HistoryJournalEntry,
  type HistoryJson,
  type HistoryOutboxItem,
  type TroupeHistory,
} from "./history/history-schema.js";
export {
  formatHistory,
  parseHistory,
  toHistoryJson,
  toJsonData,
  type HistoryFileFormat,
} from "./history/history-codec.js";
export { InvalidHistoryError } from "./history/invalid-history-error.js";
