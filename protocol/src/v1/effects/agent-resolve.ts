import { z } from "zod";
import { sessionPolicySchema } from "../messages/session-commands.js";
import { nullAsAbsent } from "./null-as-absent.js";

/**
 * Name of the effect that looks up the settings of an agent: requested by the
 * session machine (`session/<sessionId>`) the first time it meets an agent
 * name in a `user.message`, handled by the agent host (`@troupe/agents`, from
 * its agent registry). Its result is journaled in the session's inbox like
 * every effect result, so a replay never consults a registry.
 */
export const AGENT_RESOLVE_EFFECT = "agent.resolve";

/**
 * Input of the `agent.resolve` effect. `null` reads as absent.
 *
 * Shape: `{ agent?: string }` — the agent a `user.message` named; absent = the
 * host's default agent.
 */
export const agentResolveInputSchema = nullAsAbsent(
  z.object({
    agent: z.string().min(1).optional(),
  }),
);
/** See {@link agentResolveInputSchema}. */
export type AgentResolveInput = z.infer<typeof agentResolveInputSchema>;

/**
 * Output of the `agent.resolve` effect (`effect.completed.output`): the agent's
 * defaults for a session that runs it. A session adopts them when its first
 * message is admitted, except for settings `session.configure` set before.
 * An agent the host does not serve fails the effect instead
 * (`effect.failed`, error code `unknown_agent`).
 *
 * Shape: `{ name?: string, policy: SessionPolicy, maxModelCalls: number
 * (whole, 1+), version?: string }` — `name` is the agent that answered (the
 * default agent's own name when the session named none) and `version` its
 * definition's declared version (`defineAgent({ version })`, 1 to 64
 * characters). Both were added later (decision 0020) and are optional, so results
 * journaled before them still replay; the session keeps them in its snapshot
 * (`resolvedAgents`), which is how a snapshot records the agent version.
 */
export const agentResolveOutputSchema = nullAsAbsent(
  z.object({
    /** The agent's name (the default agent's when the input named none). */
    name: z.string().min(1).max(64).optional(),
    /** What the session does with a message that arrives during a run. */
    policy: sessionPolicySchema,
    /** Model calls per run before a final call without tools. */
    maxModelCalls: z.number().int().min(1),
    /** The agent definition's declared version, when it declares one. */
    version: z.string().min(1).max(64).optional(),
  }),
);
/** See {@link agentResolveOutputSchema}. */
export type AgentResolveOutput = z.infer<typeof agentResolveOutputSchema>;
