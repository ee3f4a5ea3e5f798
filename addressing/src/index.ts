/**
 * @troupe/addressing — how every actor, subject, stream and Redis key of a
 * Troupe deployment is named, and the errors every Troupe package throws; no
 * IO. `@troupe/protocol` re-exports all of it, with the envelopes, schemas and
 * codecs built on these names.
 *
 * - **Addresses**: actors are `kind/id`, both NATS-token safe (`actorAddress`,
 *   `parseAddress`, `formatAddress`); a tool call's actor id and idempotency
 *   key derive from its session, run and call ids (`toolActorId`,
 *   `idempotencyKeyOf`).
 * - **Subjects**: every subject is built and parsed here: public inboxes
 *   `troupe.<kind>.<id>.in`, events `troupe.<kind>.<id>.events.<eventType>`,
 *   internal shard inboxes and dead letters under `_troupe.`, the server-side
 *   inbox mapping, the shard hash (`shardOf`) and the stream names.
 * - **Storage**: the Redis key table (`RedisKeys`, on the internal entry) and
 *   reading a stream's last message on a subject with a deadline.
 * - **Errors**: `TroupeError` and its subclasses, and `WireError` for errors that
 *   cross NATS.
 * - **Telemetry names**: span, metric and attribute names, and the W3C trace
 *   context carried in message headers.
 * - **Text**: cutting text between user-perceived characters.
 *
 * The contract (token layouts, the versioning rules) is written in
 * `@troupe/protocol`'s README.
 *
 * @packageDocumentation
 */

export { TROUPE_ERROR_CODES, type TroupeErrorCode } from "./errors/troupe-error-code.js";
export { TroupeError, type TroupeErrorOptions } from "./errors/troupe-error.js";
export { InvalidAddressError, type InvalidAddressField } from "./errors/invalid-address-error.js";
export {
  DecodeError,
  type DecodeErrorOptions,
  type DecodeFailureReason,
  type DecodeIssue,
} from "./errors/decode-error.js";
export {
  PayloadTooLargeError,
  type PayloadTooLargeErrorOptions,
} from "./errors/payload-too-large-error.js";
export {
  messageWithCauses,
  toWireError,
  wireErrorSchema,
  type WireError,
} from "./errors/wire-error.js";
export * from "./errors/media-rejected-error.js";
export * from "./errors/store-read-timeout-error.js";

export {
  ACTOR_TOKEN_PATTERN,
  ACTOR_TOKEN_RULE,
  MAX_ACTOR_TOKEN_LENGTH,
  actorIdSchema,
  isValidActorId,
} from "./address/actor-id.js";
export { RESERVED_ACTOR_KINDS, actorKindSchema, isValidActorKind } from "./address/actor-kind.js";
export {
  actorAddress,
  actorAddressSchema,
  assertActorId,
  assertActorKind,
  type ActorAddress,
} from "./address/actor-address.js";
export { formatAddress } from "./address/format-address.js";
export { idempotencyKeyOf } from "./address/idempotency-key.js";
export { fnv1a128, toolActorId } from "./address/tool-actor-id.js";
export {
  actorAddressTextSchema,
  isValidAddressText,
  parseAddress,
} from "./address/parse-address.js";

export {
  INTERNAL_SUBJECT_ROOT,
  PUBLIC_SUBJECT_ROOT,
  isSubjectToken,
} from "./subjects/subject-token.js";
export {
  EVENT_TYPE_PATTERN,
  assertEventType,
  eventTypeSchema,
  isValidEventType,
} from "./subjects/event-type.js";
export { inboxSubject, parseInboxSubject } from "./subjects/inbox-subject.js";
export {
  allSessionsEventWildcard,
  eventSubject,
  eventWildcard,
  parseEventSubject,
  type EventSubjectParts,
} from "./subjects/event-subject.js";
export { MAX_SHARD_COUNT, assertShard, assertShardCount } from "./subjects/shard-number.js";
export { shardOf } from "./subjects/shard-of.js";
export { natsServerUrls } from "./subjects/nats-server-urls.js";
export {
  SCHEDULE_INDEX_STREAM_SUBJECTS,
  scheduleIndexStreamName,
  scheduleIndexSubject,
} from "./subjects/schedule-index-subjects.js";
export {
  parseShardInboxSubject,
  shardInboxFilter,
  shardInboxSubject,
  type ShardInboxSubjectParts,
} from "./subjects/shard-inbox-subject.js";
export { inboxSubjectMapping, type SubjectMapping } from "./subjects/inbox-subject-mapping.js";
export { INVALID_TOKEN_PLACEHOLDER, deadLetterSubject } from "./subjects/dead-letter-subject.js";
export { transcriptSubject } from "./subjects/transcript-subject.js";
export { deltaSubject, EXPECTED_STREAM_HEADER } from "./subjects/delta-subject.js";
export { ALERT_SUBJECTS, alertSubject } from "./subjects/alert-subject.js";
export { streamNames, type StreamNames } from "./subjects/stream-names.js";
export { DEFAULT_DEPLOYMENT_PREFIX, DEFAULT_SHARD_COUNT } from "./subjects/deployment-defaults.js";
export {
  MAX_CAPTURED_SUBJECT_TOKENS,
  UNROUTABLE_DEAD_LETTER_SUBJECT,
  describeUnroutableSubject,
  isRoutedPublicSubject,
  unroutableCaptureSubjects,
} from "./subjects/unroutable-subject.js";
export {
  CLAIM_STREAM_SUBJECTS,
  executionClaimSubject,
  DEAD_LETTER_STREAM_SUBJECTS,
  DELTA_STREAM_SUBJECTS,
  EVENT_STREAM_SUBJECTS,
  INBOX_STREAM_SUBJECTS,
  TRANSCRIPT_STREAM_SUBJECTS,
} from "./subjects/stream-subjects.js";
export * from "./subjects/media-bucket-name.js";

export * from "./storage/last-stored-message.js";

export {
  TRACEPARENT_HEADER,
  TRACESTATE_HEADER,
  traceCarrierFromHeaders,
  traceCarrierSchema,
  type TraceCarrier,
} from "./telemetry/trace-carrier.js";
export {
  ATTRIBUTES,
  METRICS,
  SPAN_NAMES,
  TELEMETRY_SCOPE,
  type MetricDefinition,
} from "./telemetry/telemetry-names.js";

export { cutText, splitLastGrapheme } from "./text/grapheme-text.js";
