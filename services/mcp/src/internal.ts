/**
 * @troupe/mcp/internal — every module of the package, for the `troupe` command
 * and Troupe's own tests. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./mcp/agent-tool.js";
export * from "./mcp/answer-progress.js";
export * from "./mcp/elicitation.js";
export * from "./mcp/mcp-http-server.js";
export * from "./mcp/mcp-listen-address.js";
export * from "./mcp/mcp-task.js";
export * from "./mcp/serve-mcp.js";
export * from "./mcp/session-transcript.js";
export * from "./mcp/troupe-mcp-server.js";
