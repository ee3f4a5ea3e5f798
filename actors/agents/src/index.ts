/**
 * @troupe/agents — durable AI agents on `@troupe/runtime`: every session, run
 * (turn), tool call and subagent is an actor whose pure machine comes from
 * `@troupe/machines`; models are called through the Vercel AI SDK (`ai`).
 *
 * - {@link defineAgent} / {@link defineTool}: an agent's model, instructions,
 *   tools (zod input schema, effect class, timeout, result size), policy and
 *   subagents. See src/agents/README.md and src/tools/README.md.
 * - {@link agentKinds}: the `session`, `run` and `tool` actor kinds for
 *   `ActorHost.start({ kinds })`, with the `agent.resolve` effect wired to the
 *   agent registry (a session's agent settings are journaled), `model.call` to
 *   the AI SDK and `tool.execute` to the agents' tools, each call behind an
 *   idempotency record.
 * - {@link replayHistory} / {@link replayHistories}: replay recorded histories
 *   (`troupe history export`) offline with the agent machines and report the
 *   first divergence; {@link agentMachineKinds} are those machines
 *   as pure kind definitions.
 * - Spend limits: `limits.budget` of {@link defineAgent}
 *   ({@link BudgetOptions}), {@link BudgetExceededError}, {@link SpendReport}
 *   (what `troupe usage` reads). See docs/capabilities/spend-limits.md.
 * - {@link resolveModel} (`TROUPE_MODEL`, provider specs) and the deterministic
 *   {@link ScriptedModel} for demos and tests.
 *
 * Internals (the effect handlers, stores, prompt building) are in
 * `@troupe/agents/internal`, for Troupe's own packages and tests only.
 *
 * @packageDocumentation
 */
export * from "./agents/agent-definition.js";
export * from "./agents/agent-kinds.js";
export {
  SCHEDULE_MACHINE_VERSION,
  scheduleKind,
  scheduleMachineKind,
} from "./schedules/schedule-kind.js";
export { JetStreamScheduleIndex } from "./schedules/jetstream-schedule-index.js";
export * from "./agents/define-agent.js";
export * from "./agents/invalid-agent-error.js";
export * from "./agents/model-call-error.js";
export { MAX_MODEL_OUTPUT_BYTES } from "./agents/model-output-size.js";
export * from "./agents/replay-history.js";
export * from "./agents/subagents.js";
export {
  formatHistoryReplayReport,
  type ActorReplayReport,
  type HistoryDivergence,
  type HistoryReplayReport,
  type ReplayedStep,
  type RequestedEffect,
} from "@troupe/runtime";
export * from "./agents/unknown-agent-error.js";
export * from "./agents/context-budget.js";
export {
  COMPACTION_INSTRUCTIONS,
  COMPACTION_INSTRUCTIONS_MARKER,
} from "./agents/summarise-transcript.js";
export * from "./models/demo-script.js";
export * from "./models/model-not-configured-error.js";
export * from "./models/model-spec.js";
export * from "./models/resolve-model.js";
export * from "./models/scripted-model.js";
export * from "./models/scripted-step.js";
export * from "./tools/define-tool.js";
export * from "./tools/invalid-tool-error.js";
export * from "./tools/tool-call-errors.js";
export { TOOL_PROGRESS_INTERVAL_MS } from "./tools/tool-execute-handler.js";
export {
  MCP_EXECUTION_ATTEMPT_META,
  MCP_IDEMPOTENCY_KEY_META,
  MCP_SERVER_NAME_PATTERN,
  MCP_TOOL_NAME_SEPARATOR,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  mcpServerOptionsSchema,
  type McpServerDefinition,
  type McpServerOptions,
  type McpToolOverride,
} from "./mcp/mcp-server-options.js";
export { mcpToolEffectClass, type McpToolAnnotations } from "./mcp/mcp-effect-class.js";
export { MCP_RECONNECT_BASE_MS, MCP_RECONNECT_MAX_MS } from "./mcp/mcp-server-connection.js";
export { readToolResult } from "./tools/redis-tool-result-store.js";
export * from "./budget/budget-options.js";
export * from "./budget/budget-exceeded-error.js";
export { DEFAULT_MODEL_PRICING, type PricedModel } from "./budget/model-pricing.js";
export {
  SpendReport,
  type BudgetSpend,
  type SessionSpend,
  type SpendTotals,
  type TreeSpend,
} from "./budget/spend-report.js";
// Media by reference (docs/capabilities/media.md).
export type { MediaStore, MediaDescription } from "./media/media-store.js";
export {
  ObjectStoreMediaStore,
  DEFAULT_MEDIA_RETENTION_MS,
  type ObjectStoreMediaStoreOptions,
} from "./media/object-store-media-store.js";
export { mediaDigest } from "./media/media-digest.js";
export { mediaStandIn } from "./media/media-stand-in.js";
export { DEFAULT_ACCEPTED_MEDIA_TYPES } from "./media/prompt-media.js";
export type { ToolMedia } from "./media/tool-result-media.js";
