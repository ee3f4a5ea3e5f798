import type { ToolEffectClass, ToolPolicyDecision } from "@troupe/protocol";

/** Tool-name patterns by decision (an agent's `toolPolicy`, or a session's overrides without `allow`). */
export interface ToolPolicyLists {
  readonly allow?: readonly string[] | undefined;
  readonly ask?: readonly string[] | undefined;
  readonly deny?: readonly string[] | undefined;
}

/** Decisions from loosest to safest; the safer of two wins. */
const ORDER: readonly ToolPolicyDecision[] = ["allow", "ask", "deny"];

/**
 * Whether a tool-name pattern matches a tool name: the whole name, with `*`
 * standing for any characters (none included).
 *
 * @param pattern - e.g. `charge`, `charge_*`, `*`.
 * @param toolName - the tool's name.
 * @example
 * matchesToolPattern("pay_*", "pay_card") // true
 */
export function matchesToolPattern(pattern: string, toolName: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(toolName);
}

const matchesAny = (patterns: readonly string[] | undefined, toolName: string) =>
  (patterns ?? []).some((pattern) => matchesToolPattern(pattern, toolName));

/**
 * The decision of a policy's lists for a tool: `deny` > `ask` > `allow`;
 * undefined when no list matches.
 */
function listDecision(
  policy: ToolPolicyLists | undefined,
  toolName: string,
): ToolPolicyDecision | undefined {
  if (policy === undefined) return undefined;
  if (matchesAny(policy.deny, toolName)) return "deny";
  if (matchesAny(policy.ask, toolName)) return "ask";
  if (matchesAny(policy.allow, toolName)) return "allow";
  return undefined;
}

/**
 * The decision for an effect class no pattern names: `read` and
 * `idempotent_write` are allowed, `non_idempotent_write` and `unclassified` ask.
 *
 * @param effectClass - the tool's effect class.
 */
export function defaultToolDecision(effectClass: ToolEffectClass): ToolPolicyDecision {
  return effectClass === "read" || effectClass === "idempotent_write" ? "allow" : "ask";
}

/**
 * The policy decision for a call of `toolName`: the agent's lists (`deny` >
 * `ask` > `allow`, else the default of the effect class), then the session's
 * overrides, which only count when they are safer (`allow` < `ask` < `deny`).
 *
 * @param options - the agent's policy, the session's overrides, the tool's name and effect class.
 * @returns `allow`, `ask` or `deny`.
 * @example
 * decideToolCall({ policy: { allow: ["*"] }, toolName: "charge", effectClass: "non_idempotent_write" }) // "allow"
 */
export function decideToolCall(options: {
  readonly policy: ToolPolicyLists | undefined;
  /** The session's overrides; an `allow` list here is ignored (a session cannot loosen). */
  readonly overrides?: ToolPolicyLists | undefined;
  readonly toolName: string;
  readonly effectClass: ToolEffectClass;
}): ToolPolicyDecision {
  const agent =
    listDecision(options.policy, options.toolName) ?? defaultToolDecision(options.effectClass);
  const overrides = options.overrides && {
    ask: options.overrides.ask,
    deny: options.overrides.deny,
  };
  const session = listDecision(overrides, options.toolName);
  if (session === undefined) return agent;
  return ORDER.indexOf(session) > ORDER.indexOf(agent) ? session : agent;
}
