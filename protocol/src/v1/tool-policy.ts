import { z } from "zod";

/**
 * What happens to a tool call before it runs: `allow` (run it), `ask` (wait for
 * `tool.approve` / `tool.deny` on the session's subject), `deny` (never run it;
 * the model is told it was denied by policy). Ordered from loosest to safest.
 */
export const toolPolicyDecisionSchema = z.enum(["allow", "ask", "deny"]);
/** See {@link toolPolicyDecisionSchema}. */
export type ToolPolicyDecision = z.infer<typeof toolPolicyDecisionSchema>;

/** A tool-name pattern: the name itself, or with `*` standing for any characters. */
const toolPatternSchema = z.string().min(1).max(128);

/**
 * Tool policy patterns: tool names (or patterns with `*`) that are allowed,
 * asked for or denied. A call takes the safest decision whose list matches its
 * tool (`deny` > `ask` > `allow`).
 *
 * Shape: `{ allow?: string[], ask?: string[], deny?: string[] }`.
 */
export const toolPolicySchema = z.object({
  allow: z.array(toolPatternSchema).optional(),
  ask: z.array(toolPatternSchema).optional(),
  deny: z.array(toolPatternSchema).optional(),
});
/** Payload part `toolPolicy`; see {@link toolPolicySchema}. */
export type ToolPolicy = z.infer<typeof toolPolicySchema>;

/**
 * The per-session tool policy overrides a run carries (`run.start`) and hands to
 * the `model.call` effect: only `ask` and `deny` patterns, since a session may
 * make its agent's policy safer, never looser.
 *
 * Shape: `{ ask?: string[], deny?: string[] }`.
 */
export const toolPolicyOverridesSchema = z.object({
  ask: z.array(toolPatternSchema).optional(),
  deny: z.array(toolPatternSchema).optional(),
});
/** See {@link toolPolicyOverridesSchema}. */
export type ToolPolicyOverrides = z.infer<typeof toolPolicyOverridesSchema>;
