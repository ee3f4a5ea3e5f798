import type { ToolEffectClass } from "@troupe/protocol";

/**
 * The behaviour hints of an MCP tool (`Tool.annotations`), as far as they
 * decide its effect class. All optional; the spec's defaults when absent:
 * `readOnlyHint` false, `destructiveHint` true, `idempotentHint` false.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-annotations
 */
export interface McpToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
}

/**
 * The effect class of an MCP tool from its annotations (docs/decisions/0024):
 *
 * | annotations                                            | effect class           |
 * | ------------------------------------------------------ | ---------------------- |
 * | `readOnlyHint: true`                                   | `read`                 |
 * | `idempotentHint: true` (not read-only)                 | `idempotent_write`     |
 * | `destructiveHint: false`, not idempotent               | `non_idempotent_write` |
 * | none, or only destructive / unknown hints              | `unclassified`         |
 *
 * Hints are untrusted by the spec; an agent overrides the class per tool
 * (`mcpServers.<name>.tools.<tool>.effectClass`). `non_idempotent_write` and
 * `unclassified` both run at most once and ask for approval by default.
 *
 * @param annotations - the tool's `annotations`, if any.
 * @returns the effect class.
 */
export function mcpToolEffectClass(annotations: McpToolAnnotations | undefined): ToolEffectClass {
  if (annotations?.readOnlyHint === true) return "read";
  if (annotations?.idempotentHint === true) return "idempotent_write";
  if (annotations?.destructiveHint === false) return "non_idempotent_write";
  return "unclassified";
}
