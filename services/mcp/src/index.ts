/**
 * @troupe/mcp — a Troupe deployment's agents served over the Model Context
 * Protocol (https://modelcontextprotocol.io/specification): each agent is a
 * tool, a call is a run (an MCP task when the client asks for one), an open
 * approval or question is an elicitation, a session's transcript is a
 * resource. Over stdio or Streamable HTTP ({@link serveMcp}), or as an SDK
 * `Server` to connect to a transport of your own ({@link createTroupeMcpServer}).
 * Needs only a `TroupeClient` (NATS).
 *
 * @packageDocumentation
 */
export { serveMcp, type ServeMcpOptions, type ServingMcp } from "./mcp/serve-mcp.js";
export {
  createTroupeMcpServer,
  TRANSCRIPT_URI_TEMPLATE,
  type TroupeMcpServerOptions,
} from "./mcp/troupe-mcp-server.js";
export { MCP_PATH, startMcpHttpServer, type McpHttpServer } from "./mcp/mcp-http-server.js";
export {
  DEFAULT_MCP_HOST,
  DEFAULT_MCP_PORT,
  mcpListenAddress,
  type McpListenAddress,
} from "./mcp/mcp-listen-address.js";
export { servedAgentOf, type ServedAgent } from "./mcp/agent-tool.js";
export { MCP_CURSOR_META_KEY } from "./mcp/answer-progress.js";
