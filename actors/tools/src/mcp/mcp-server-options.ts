import { toolEffectClassSchema } from "@troupe/protocol";
import { z } from "zod";

/**
 * Key of the idempotency key in the `_meta` of every `tools/call` Troupe sends
 * to an MCP server (docs/decisions/0024): `<sessionId>/<runId>/<toolCallId>`, the same on
 * every execution attempt of the tool call, so a server that deduplicates can.
 * Namespaced as the MCP spec asks of `_meta` keys (a reverse-DNS-style prefix
 * and a slash).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/index#meta
 */
export const MCP_IDEMPOTENCY_KEY_META = "dev.troupe/idempotency-key";
/** Key of the execution attempt (1-based, as `ToolExecutionContext.attempt`) in the same `_meta`. */
export const MCP_EXECUTION_ATTEMPT_META = "dev.troupe/execution-attempt";

/**
 * MCP server names in `mcpServers`: 1 to 32 characters from `A-Z a-z 0-9 _ -`,
 * without `__` (it separates the server from the tool in `<server>__<tool>`).
 */
export const MCP_SERVER_NAME_PATTERN = /^(?!.*__)[A-Za-z0-9_-]{1,32}$/;
/** Separator between the server's prefix and the tool's name by default: `<server>__<tool>`. */
export const MCP_TOOL_NAME_SEPARATOR = "__";
/** Longest wait for a server to connect and list its tools, in ms, by default (per attempt). */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 10_000;

const timeoutSchema = z
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

/** Settings of one tool of an MCP server that override what its annotations say. */
const mcpToolOverrideSchema = z.strictObject({
  effectClass: toolEffectClassSchema.optional(),
  timeoutMs: timeoutSchema.optional(),
  maxResultBytes: z.number().int().min(1).optional(),
});

const commonFields = {
  /**
   * What the model's tool names start with; default `<server>__`. May be empty
   * (the server's names as they are).
   */
  toolPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,40}$/, 'must be up to 40 characters from A-Z, a-z, 0-9, "_" and "-"')
    .optional(),
  /** Per tool, by the server's tool name: effect class, timeout, result size. */
  tools: z.record(z.string().min(1), mcpToolOverrideSchema).default({}),
  /** Time a call of this server's tools may take, in ms (default: `defineTool`'s 30 000). */
  timeoutMs: timeoutSchema.optional(),
  /** Longest wait for one connection attempt (connect + initialize + list tools), in ms; default 10 000. */
  connectTimeoutMs: timeoutSchema.default(DEFAULT_MCP_CONNECT_TIMEOUT_MS),
};

/** A server the host starts and supervises, spoken to over stdio. */
export const mcpStdioServerSchema = z.strictObject({
  ...commonFields,
  /** Executable, e.g. `"npx"` or `"node"`. */
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Added to the SDK's default environment (`PATH`, `HOME`, …; not the whole host environment). */
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
});

/** A server reached by URL: Streamable HTTP, falling back to the older HTTP+SSE transport. */
export const mcpHttpServerSchema = z.strictObject({
  ...commonFields,
  url: z.url({ protocol: /^https?$/, error: "must be an http: or https: URL" }),
  /** Sent with every request, e.g. `{ Authorization: "Bearer …" }`. */
  headers: z.record(z.string(), z.string()).optional(),
  /** `auto` (default): Streamable HTTP, then SSE when the server refuses it. */
  transport: z.enum(["auto", "streamable-http", "sse"]).default("auto"),
});

/**
 * One entry of `defineAgent({ mcpServers })` (docs/decisions/0024):
 * `{ command, args?, env?, cwd? }` (stdio) or `{ url, headers?, transport? }`
 * (Streamable HTTP / SSE), both with `toolPrefix?`, `tools?` (per-tool
 * `{ effectClass?, timeoutMs?, maxResultBytes? }`), `timeoutMs?`, `connectTimeoutMs?`.
 */
export const mcpServerOptionsSchema = z.union([mcpStdioServerSchema, mcpHttpServerSchema]);
/** See {@link mcpServerOptionsSchema} (as given, defaults optional). */
export type McpServerOptions = z.input<typeof mcpServerOptionsSchema>;
/** A validated MCP server entry, defaults filled in. */
export type McpServerDefinition = z.output<typeof mcpServerOptionsSchema>;
/** Settings that override one MCP tool's annotations. */
export type McpToolOverride = z.output<typeof mcpToolOverrideSchema>;

/**
 * Whether an MCP server entry is started by the host (stdio) rather than reached by URL.
 *
 * @param server - a validated entry.
 */
export function isStdioServer(
  server: McpServerDefinition,
): server is z.output<typeof mcpStdioServerSchema> {
  return "command" in server;
}

/**
 * Checks the `mcpServers` option of `defineAgent`: each entry by the schema
 * its form picks (`command` → stdio, `url` → HTTP), so every problem is named
 * by its path (`mcpServers.fs.tools.write_file.effectClass`).
 *
 * @param value - the option as given (undefined = none).
 * @returns the validated entries and the problems found (paths start with `mcpServers`).
 */
export function parseMcpServers(value: unknown): {
  servers: Record<string, McpServerDefinition>;
  issues: { path: (string | number)[]; message: string }[];
} {
  const servers: Record<string, McpServerDefinition> = {};
  const issues: { path: (string | number)[]; message: string }[] = [];
  if (value === undefined) return { servers, issues };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issues.push({ path: ["mcpServers"], message: "must be an object keyed by server name" });
    return { servers, issues };
  }
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const path = ["mcpServers", name];
    if (!MCP_SERVER_NAME_PATTERN.test(name)) {
      issues.push({
        path,
        message:
          'MCP server names must be 1 to 32 characters from A-Z, a-z, 0-9, "_" and "-", without "__"',
      });
      continue;
    }
    const form = typeof entry === "object" && entry !== null ? entry : {};
    const schema =
      "command" in form ? mcpStdioServerSchema : "url" in form ? mcpHttpServerSchema : undefined;
    if (schema === undefined) {
      issues.push({
        path,
        message:
          "must be { command, args?, env?, cwd? } (stdio) or { url, headers? } (Streamable HTTP)",
      });
      continue;
    }
    const parsed = schema.safeParse(entry);
    if (parsed.success) {
      servers[name] = parsed.data;
      continue;
    }
    for (const issue of parsed.error.issues) {
      issues.push({
        path: [...path, ...issue.path.map((key) => (typeof key === "symbol" ? String(key) : key))],
        message: issue.message,
      });
    }
  }
  return { servers, issues };
}
