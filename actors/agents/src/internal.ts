/**
 * @troupe/agents/internal — the agent layer's parts for Troupe's own packages
 * and tests: effect handlers, idempotency record stores, prompt building,
 * transcript readers. Everything public is re-exported. Not covered by semantic
 * versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "@troupe/tools/internal";
export * from "@troupe/models/internal";
export * from "./agents/agent-registry.js";
export * from "./agents/agent-resolve-handler.js";
export * from "./agents/build-model-prompt.js";
export * from "./agents/compaction-plan.js";
export * from "./agents/compacted-prompt.js";
export * from "./agents/summarise-transcript.js";
export * from "./agents/model-call-handler.js";
export * from "./agents/definition-record.js";
export * from "./agents/definition-store.js";
export * from "./agents/pinned-definitions.js";
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
export * from "./agents/approvals-pending.js";
export * from "./agents/model-call-spend.js";
export * from "./agents/model-call-slots.js";
export * from "./agents/model-call-telemetry.js";
