/**
 * @troupe/tools/internal — the tool layer's parts for Troupe's own packages
 * and tests: the `tool.execute` handler, idempotency record and tool result
 * stores (Redis and in-memory, with their contract suite), execution claims,
 * the MCP client connection and catalog, media in prompts and tool results,
 * tool telemetry. Everything public is re-exported. Not covered by semantic
 * versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
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
export * from "./tools/tool-telemetry.js";
export * from "./media/host-media-store-options.js";
export * from "./telemetry/per-meter-provider.js";
export * from "./media/media-type-pattern.js";
export * from "./mcp/mcp-server-options.js";
export * from "./media/prompt-media.js";
export * from "./media/media-bucket-of.js";
