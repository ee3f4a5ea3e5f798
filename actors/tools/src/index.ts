/**
 * @troupe/tools — the tools of Troupe agents, and the media they carry.
 *
 * - {@link defineTool}: a tool's name, zod input schema, effect class,
 *   timeout, result size and approval policy; the `tool.execute` effect
 *   handler (on `@troupe/tools/internal`) runs it at most once per
 *   idempotency key, behind an idempotency record in Redis. See
 *   src/tools/README.md.
 * - MCP servers' tools ({@link McpServerOptions}): each tool of a configured
 *   server becomes an agent tool, with its effect class from the tool's
 *   annotations. See src/mcp/README.md.
 * - Media by reference ({@link MediaStore}, {@link ObjectStoreMediaStore}):
 *   images and files in a NATS Object Store, referred to by digest from
 *   messages, tool results and prompts. See src/media/README.md.
 *
 * `@troupe/agents` re-exports all of it; an agent lists its tools in
 * `defineAgent({ tools })`.
 *
 * @packageDocumentation
 */
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
