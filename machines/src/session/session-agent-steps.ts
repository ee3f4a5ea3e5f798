import {
  AGENT_RESOLVE_EFFECT,
  agentResolveOutputSchema,
  emitEvent,
  requestEffect,
  type AgentResolveInput,
} from "@troupe/protocol";
import type { MachineStep } from "../host-actions/machine-step.js";
import type { SessionContext } from "./session-context.js";
import type { SessionEvent } from "./session-events.js";

// Steps of the session machine that learn an agent's settings from the
// journal: the `agent.resolve` effect and the messages that wait for it.
// session-machine.ts decides when each runs.

/** A session step that may raise events (the messages that waited). */
type AgentStep = (
  context: SessionContext,
  event: SessionEvent,
) => MachineStep<SessionContext, SessionEvent>;

/**
 * Whether a `user.message` needs its agent resolved before the session can
 * take it: the session has not adopted an agent yet (its first message; no
 * name = the host's default agent), or the message names an agent the session
 * has not resolved (checked as the host checked it before: an unknown name is
 * refused).
 *
 * @param context - the session.
 * @param event - any session event; only a `user.message` may need it.
 */
export function needsAgentResolution(context: SessionContext, event: SessionEvent): boolean {
  if (event.type !== "user.message") return false;
  if (context.created && event.agent === undefined) return false;
  return !context.resolvedAgents.some((resolved) => resolved.agent === event.agent);
}

/** Whether the event is the result of the `agent.resolve` request the session waits for. */
export const isAgentResolution = (context: SessionContext, event: SessionEvent): boolean =>
  (event.type === "effect.completed" || event.type === "effect.failed") &&
  event.effectId === context.pendingAgent?.effectId;

/** Whether the event is a well-formed successful `agent.resolve` result. */
export const resolvesAgent = (event: SessionEvent): boolean =>
  event.type === "effect.completed" && agentResolveOutputSchema.safeParse(event.output).success;

/**
 * Requests `agent.resolve` (effect id `agent.<n>`) for the agent a
 * `user.message` names, and keeps the message until the result arrives.
 */
export const requestAgent: AgentStep = (context, event) => {
  if (event.type !== "user.message") return {};
  const agentResolutions = context.agentResolutions + 1;
  const effectId = `agent.${agentResolutions}`;
  const input: AgentResolveInput = event.agent === undefined ? {} : { agent: event.agent };
  return {
    context: { agentResolutions, pendingAgent: { effectId, message: event, waiting: [] } },
    actions: [requestEffect({ effect: AGENT_RESOLVE_EFFECT, effectId, input })],
  };
};

/** A message that arrived while the session waits for an agent: it waits behind the others. */
export const holdMessage: AgentStep = ({ pendingAgent }, event) =>
  pendingAgent === undefined
    ? {}
    : { context: { pendingAgent: { ...pendingAgent, waiting: [...pendingAgent.waiting, event] } } };

/**
 * The agent is resolved: its settings join `resolvedAgents`, and the waiting
 * message is taken again, then the messages behind it, in order.
 */
export const adoptAgent: AgentStep = (context, event) => {
  const { pendingAgent } = context;
  const parsed =
    event.type === "effect.completed"
      ? agentResolveOutputSchema.safeParse(event.output)
      : undefined;
  if (pendingAgent === undefined || parsed === undefined || !parsed.success) return {};
  const { agent } = pendingAgent.message;
  const resolved = { ...(agent === undefined ? {} : { agent }), ...parsed.data };
  return {
    context: { resolvedAgents: [...context.resolvedAgents, resolved], pendingAgent: undefined },
    raise: [pendingAgent.message, ...pendingAgent.waiting],
  };
};

/**
 * The agent could not be resolved (an agent the host does not serve: code
 * `unknown_agent`, or any other failure of the effect): the waiting message is
 * refused with `message.rejected` carrying the effect's error code and
 * message, then the messages behind it are taken, in order.
 */
export const rejectUnresolvedAgent: AgentStep = (context, event) => {
  const { pendingAgent } = context;
  if (pendingAgent === undefined) return {};
  const { code, message } =
    event.type === "effect.failed"
      ? event.error
      : {
          code: "internal",
          message: `${AGENT_RESOLVE_EFFECT} returned no agent settings ({ policy, maxModelCalls })`,
        };
  return {
    context: { pendingAgent: undefined },
    actions: [
      emitEvent("message.rejected", {
        reason: message,
        code,
        messageId: pendingAgent.message.messageId,
        type: pendingAgent.message.type,
      }),
    ],
    raise: pendingAgent.waiting,
  };
};
