/**
 * @troupe/client — a light Node client of a Troupe deployment. It needs only
 * `@troupe/protocol` and NATS: no Redis, no host, no AI SDK.
 *
 * {@link TroupeClient} sends messages to sessions (idempotent by client
 * message id), follows a session's events with no gap or duplicate across
 * reconnects, approves, denies, answers, steers, cancels and waits for runs.
 * README.md states what it guarantees.
 *
 * @example
 * // TROUPE_NATS_URL, else the running `troupe dev`, else nats://127.0.0.1:4222
 * await using client = await TroupeClient.connect();
 * const outcome = await client.sendAndWait("demo-1", "hello", { timeoutMs: 60_000 });
 *
 * @packageDocumentation
 */
export {
  TroupeClient,
  type AllSessionEventsOptions,
  type EventsOptions,
  type SendAndWaitOptions,
} from "./troupe-client.js";
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  type TroupeClientCredentials,
  type TroupeClientOptions,
  type TroupeClientTls,
} from "./troupe-client-options.js";
export { redactUrl, redactUrls, REDACTED } from "./redact-url.js";
export {
  DEFAULT_NATS_URL,
  resolveDeployment,
  type NatsUrlSource,
  type ResolvedDeployment,
} from "./resolve-deployment.js";
export { devStatePath, troupeHome, type DevState } from "./dev-state.js";
export type { CommandReceipt, SendReceipt } from "./send-receipt.js";
export type { ForkOptions } from "./fork-options.js";
export type { CommandOutcome } from "./command-outcome.js";
export type { ConnectionChange } from "./connection-change.js";
export { DEFAULT_VERDICT_TIMEOUT_MS, type AwaitVerdictOptions } from "./troupe-client.js";
export type { SessionEvent } from "./session-event.js";
export type { RunOutcome } from "./run-outcome.js";
export type { UserMessageInput } from "./user-message-input.js";
export type { ClientMediaOptions, UploadMediaOptions } from "./client-media.js";
export type { RunTarget } from "./run-tracker.js";
export type { WaitForRunOptions } from "./wait-for-run-outcome.js";
export { DEFAULT_REMEMBERED_EVENT_IDS, EventDeduplicator } from "./event-deduplicator.js";
export { userMessageEnvelopeId } from "./session-message.js";
export { NatsUnreachableError } from "./nats-unreachable-error.js";
export { InboxMappingMissingError } from "./inbox-mapping-missing-error.js";
export { StreamsMissingError } from "./streams-missing-error.js";
export { RunTimeoutError } from "./run-timeout-error.js";
export { VerdictTimeoutError } from "./verdict-timeout-error.js";
export { MessageRejectedError } from "./message-rejected-error.js";
export { ScheduleRejectedError } from "./schedule-rejected-error.js";
export {
  ScheduleClient,
  type ScheduleCommandOptions,
  type ScheduleCreateInput,
} from "./schedule-client.js";
export { ClientClosedError } from "./client-closed-error.js";
// Errors of the wire contract the client throws as they are (invalid ids, decode failures).
export { InvalidAddressError, TroupeError } from "@troupe/protocol";
