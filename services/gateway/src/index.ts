/**
 * @troupe/gateway — the HTTP gateway of a Troupe deployment (docs/decisions/0030): the
 * AI SDK UI message stream for `useChat` at `/api/chat`, REST + SSE under
 * `/v1` with an OpenAPI document, bearer tokens scoped by session-id prefix,
 * and the web console at `/`. Stateless: all state stays in NATS and Redis.
 *
 * @example
 * await using client = await TroupeClient.connect();
 * const gateway = await serveGateway({ client, port: 7400 });
 * console.log(`open ${gateway.url}`);
 *
 * @packageDocumentation
 */
export {
  createGateway,
  DEFAULT_MAX_BODY_BYTES,
  type Gateway,
  type GatewayOptions,
} from "./create-gateway.js";
export {
  DEFAULT_GATEWAY_PORT,
  GatewayOptionsError,
  serveGateway,
  type ServeGatewayOptions,
  type ServingGateway,
} from "./serve-gateway.js";
export {
  FULL_ACCESS,
  authConfigured,
  scopeOfToken,
  type AccessScope,
  type GatewayAuth,
  type TokenGrant,
  type TokenVerifier,
} from "./http/access.js";
export {
  GatewayError,
  errorBodySchema,
  type ErrorBody,
  type GatewayErrorCode,
} from "./http/gateway-error.js";
export { isLoopbackHost } from "./http/loopback.js";
export type {
  ConsoleInspector,
  FleetIndex,
  GatewayApp,
  GatewayContext,
  GatewayLimits,
  OpenQuestion,
  PendingApproval,
  SessionSummary,
} from "./http/gateway-context.js";
export {
  DEFAULT_STALL_TIMEOUT_MS,
  DEFAULT_STREAM_BUFFER_CHUNKS,
  SlowReaderError,
  boundedReadable,
} from "./http/bounded-readable.js";
export { RunStreamTranslator, type RunMessageMetadata } from "./ui-stream/run-stream-translator.js";
export {
  approvalIdOf,
  parseApprovalId,
  parseRunMessageId,
  runMessageId,
  uiToolCallId,
} from "./ui-stream/ui-ids.js";
export { bearerTokenMatches } from "./http/bearer-token.js";
export { assertListenAllowed } from "./http/listen-address.js";
