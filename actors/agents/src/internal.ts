/**
 * @troupe/agents/internal — the agent layer's parts for Troupe's own packages
 * and tests: effect handlers, idempotency record stores, prompt building,
 * transcript readers. Everything public is re-exported. Not covered by semantic
 * versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "./agents/agent-registry.js";
export * from "./agents/agent-resolve-handler.js";
export * from "./agents/build-model-prompt.js";
export * from "./agents/compaction-plan.js";
export * from "./agents/compacted-prompt.js";
export * from "./agents/summarise-transcript.js";
export * from "./agents/model-call-handler.js";
export * from "./agents/model-tools.js";
export * from "./agents/delta-batcher.js";
export * from "./agents/stream-model-call.js";
export * from "./agents/to-model-call-error.js";
export * from "./agents/tool-messages.js";
export * from "./agents/transcript-entry.js";
export * from "./agents/transcript-reader.js";
export * from "./agents/transcript-segments.js";
export * from "./agents/fork-point.js";
export * from "./agents/fork-point-error.js";
export * from "./agents/fork-resolve-handler.js";
export * from "./transcript/delta-publisher.js";
export * from "./transcript/jetstream-transcript-reader.js";
export * from "./tools/idempotency-record-store.js";
export * from "./tools/idempotency-record-store-contract.js";
export * from "./tools/execution-claims.js";
export * from "./tools/in-memory-idempotency-record-store.js";
export * from "./tools/redis-idempotency-record-store.js";
export * from "./tools/redis-tool-result-store.js";
export * from "./tools/run-execution-attempt.js";
export * from "./tools/tool-arguments.js";
export * from "./tools/tool-execute-handler.js";
export * from "./tools/tool-execute-outputs.js";
export * from "./tools/tool-policy.js";
export * from "./tools/tool-record.js";
export * from "./tools/tool-result-content.js";
export * from "./tools/tool-result-store.js";
export * from "./mcp/mcp-server-connection.js";
export * from "./mcp/mcp-tool-catalog.js";
export * from "./mcp/mcp-tool-result.js";
export * from "./agents/approvals-pending.js";
export * from "./budget/model-pricing.js";
export * from "./budget/spend-ledger.js";
export * from "./budget/redis-spend-ledger.js";
export * from "./budget/spend-guard.js";
export * from "./agents/model-call-spend.js";
export * from "./agents/model-call-telemetry.js";
export * from "./tools/tool-telemetry.js";
export * from "./media/host-media-store-options.js";
