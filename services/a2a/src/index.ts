/**
 * @troupe/a2a — a Troupe deployment's agents served over the Agent2Agent
 * protocol (https://a2a-protocol.org/latest/specification/): an agent card per
 * agent, JSON-RPC `message/send` and `message/stream`, a task per run,
 * `tasks/get`, `tasks/cancel` and `tasks/resubscribe`, approvals and questions
 * as `input-required`, optional bearer tokens ({@link startA2aServer}). Needs
 * only a `TroupeClient` (NATS).
 *
 * @packageDocumentation
 */
export {
  startA2aServer,
  AGENT_CARD_PATH,
  MAX_A2A_BODY_BYTES,
  type A2aServer,
  type A2aServerOptions,
  type ServedA2aAgent,
} from "./a2a/a2a-server.js";
export { a2aAgentCard, type A2aAgentCardOptions } from "./a2a/a2a-agent-card.js";
export { A2A_CURSOR_HEADER, A2A_CURSOR_METADATA_KEY } from "./a2a/a2a-stream-cursor.js";
export {
  TroupeA2aRequestHandler,
  type TroupeA2aRequestHandlerOptions,
} from "./a2a/troupe-a2a-request-handler.js";
