import type { SessionSettings } from "@troupe/protocol";
import type { SessionContext } from "./session-context.js";

/**
 * The settings a session runs with beyond its agent's defaults (docs/decisions/0043):
 * `policy` and `maxModelCalls` when a `session.configure` (or the fork point)
 * set them, the session's `model` and its `toolPolicy` overrides.
 *
 * @param context - the session's context.
 * @returns `SessionSettings`; `{}` when the session runs on its agent's defaults.
 */
export function sessionSettingsOf(
  context: Pick<SessionContext, "configured" | "policy" | "model" | "maxModelCalls" | "toolPolicy">,
): SessionSettings {
  return {
    ...(context.configured.includes("policy") ? { policy: context.policy } : {}),
    ...(context.model === undefined ? {} : { model: context.model }),
    ...(context.configured.includes("maxModelCalls")
      ? { maxModelCalls: context.maxModelCalls }
      : {}),
    ...(context.toolPolicy === undefined ? {} : { toolPolicy: context.toolPolicy }),
  };
}

/** What a fork sets on its context: the settings it takes on and what counts as configured. */
export type ForkSettings = SessionSettings & {
  readonly configured: readonly ("policy" | "maxModelCalls")[];
};

/** The patterns of both lists, each once, in order of first appearance. */
export const union = (a: readonly string[] | undefined, b: readonly string[] | undefined) => [
  ...new Set([...(a ?? []), ...(b ?? [])]),
];

/**
 * Merges the source's settings at the fork point into a fork's context: a
 * setting the fork's own `session.configure` set before the fork wins; tool
 * policy patterns are united (a session's tool policy only gets safer).
 *
 * @param context - the fork's context before it adopts the fork point.
 * @param source - `settings` of the `fork.resolve` result (absent = none).
 * @returns the fields to set on the fork's context (only those that change).
 */
export function inheritSettings(
  context: Pick<SessionContext, "configured" | "model" | "toolPolicy">,
  source: SessionSettings | undefined,
): Partial<ForkSettings> {
  if (source === undefined) return {};
  const configured = new Set(context.configured);
  const ask = union(source.toolPolicy?.ask, context.toolPolicy?.ask);
  const deny = union(source.toolPolicy?.deny, context.toolPolicy?.deny);
  const policy =
    !configured.has("policy") && source.policy !== undefined ? source.policy : undefined;
  const maxModelCalls =
    !configured.has("maxModelCalls") && source.maxModelCalls !== undefined
      ? source.maxModelCalls
      : undefined;
  if (policy !== undefined) configured.add("policy");
  if (maxModelCalls !== undefined) configured.add("maxModelCalls");
  return {
    ...(policy === undefined ? {} : { policy }),
    ...(maxModelCalls === undefined ? {} : { maxModelCalls }),
    ...(context.model === undefined && source.model !== undefined ? { model: source.model } : {}),
    ...(ask.length + deny.length === 0
      ? {}
      : {
          toolPolicy: {
            ...(ask.length === 0 ? {} : { ask }),
            ...(deny.length === 0 ? {} : { deny }),
          },
        }),
    configured: [...configured].sort(),
  };
}
