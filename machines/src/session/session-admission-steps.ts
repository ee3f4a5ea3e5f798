import { emitEvent } from "@troupe/protocol";
import {
  ADMITTED_CLIENT_MESSAGE_IDS_LIMIT,
  insertIntoQueue,
  type QueuedMessage,
  type SessionContext,
  type SessionParent,
} from "./session-context.js";
import type { SessionEvent } from "./session-events.js";
import { messageIdOf, runIdAt, textOf, type SessionStep } from "./session-step.js";
import { union } from "./session-settings.js";

// Steps of the session machine about admitting messages: pure functions of
// context and event; session-machine.ts decides when each runs.

const clientMessageIdOf = (event: SessionEvent) =>
  event.type === "user.message" ? event.clientMessageId : undefined;

/**
 * Remembers the message (bounded) and, on the first user message, creates the
 * session: it adopts the message's agent and that agent's resolved settings
 * (`resolvedAgents`), except those `session.configure` set before.
 */
export const admit: SessionStep = (context, event) => {
  const clientMessageId = clientMessageIdOf(event);
  const admittedClientMessageIds =
    clientMessageId === undefined
      ? context.admittedClientMessageIds
      : [...context.admittedClientMessageIds, clientMessageId].slice(
          -ADMITTED_CLIENT_MESSAGE_IDS_LIMIT,
        );
  const patch = { admittedClientMessageIds, admittedCount: context.admittedCount + 1 };
  if (context.created || event.type !== "user.message") return { context: patch };
  const { agent } = event;
  const defaults = context.resolvedAgents.find((resolved) => resolved.agent === agent);
  const parent = parentOf(event.metadata);
  return {
    context: {
      ...patch,
      created: true,
      agent,
      ...(parent === undefined ? {} : { parent }),
      ...(defaults === undefined || context.configured.includes("policy")
        ? {}
        : { policy: defaults.policy }),
      ...(defaults === undefined || context.configured.includes("maxModelCalls")
        ? {}
        : { maxModelCalls: defaults.maxModelCalls }),
    },
    actions: [
      emitEvent("session.created", {
        sessionId: context.sessionId,
        ...(agent === undefined ? {} : { agent }),
      }),
    ],
  };
};

/**
 * The delegating session, run and tool call actor a subagent's first message
 * names in its metadata (`parentSessionId`, `parentRunId`, `parentToolActor` =
 * `tool/<id>`), or undefined for an ordinary session. `runId` is left out when
 * the metadata has no `parentRunId` (a message of a host from before the
 * parent-run budget).
 */
function parentOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): SessionParent | undefined {
  const sessionId = metadata?.["parentSessionId"];
  const runId = metadata?.["parentRunId"];
  const toolActor = metadata?.["parentToolActor"];
  if (typeof sessionId !== "string" || sessionId === "") return undefined;
  if (typeof toolActor !== "string" || !toolActor.startsWith("tool/")) return undefined;
  return { sessionId, toolActor, ...(typeof runId === "string" && runId !== "" ? { runId } : {}) };
}

/** `message.accepted`, saying which run the message starts or steers, or that it waits. */
export const accept: SessionStep = (context, event) => {
  const clientMessageId = clientMessageIdOf(event);
  const steers =
    event.type === "run.steer" ||
    // A message with attachments is queued even under `steer`.
    (event.type === "user.message" && context.policy === "steer" && !event.attachments);
  let outcome = {};
  if (event.type === "user.message" && context.activeRunId === undefined) {
    outcome = { runId: runIdAt(context.runCount + 1) };
  } else if (steers && context.activeRunId !== undefined) {
    outcome = { runId: context.activeRunId };
  } else if (event.type === "user.message") {
    outcome = { queued: true };
  }
  const payload = {
    messageId: messageIdOf(event),
    type: event.type,
    ...(clientMessageId === undefined ? {} : { clientMessageId }),
    ...outcome,
  };
  return { actions: [emitEvent("message.accepted", payload)] };
};

/** `message.duplicate`: this client message id was admitted before. */
export const reportDuplicate: SessionStep = (_, event) => ({
  actions: [
    emitEvent("message.duplicate", {
      messageId: messageIdOf(event),
      type: event.type,
      ...(event.type === "user.message" && event.clientMessageId !== undefined
        ? { clientMessageId: event.clientMessageId }
        : {}),
    }),
  ],
});

/**
 * A step that refuses the message with `message.rejected`.
 *
 * @param code - one of {@link SESSION_REJECTION_CODES}.
 * @param reason - the sentence for humans, from context and event.
 */
export function rejectWith(
  code: string,
  reason: (context: SessionContext, event: SessionEvent) => string,
): SessionStep {
  return (context, event) => ({
    actions: [
      emitEvent("message.rejected", {
        reason: reason(context, event),
        code,
        // A command a parent session forwarded is named by its original id.
        messageId:
          "commandId" in event && event.commandId !== undefined
            ? event.commandId
            : messageIdOf(event),
        type: event.type,
      }),
    ],
  });
}

/** Puts the admitted message into the queue: first among plain ones when it interrupts. */
export const enqueueMessage: SessionStep = (context, event) => {
  const entry: QueuedMessage = {
    seq: context.admittedCount,
    messageId: messageIdOf(event),
    text: textOf(event),
    ...(event.type === "user.message" && event.attachments !== undefined
      ? { attachments: event.attachments }
      : {}),
    priority: context.activeRunId !== undefined && context.policy === "interrupt",
    ...(event.type === "user.message" &&
    event.priority !== undefined &&
    event.priority !== "default"
      ? { priorityClass: event.priority }
      : {}),
  };
  return { context: { queue: insertIntoQueue(context.queue, [entry]) } };
};

/** Whether a `session.configure` tries to loosen the tool policy (a non-empty `toolPolicy.allow`). */
export const loosensToolPolicy = (event: SessionEvent): boolean =>
  event.type === "session.configure" && (event.toolPolicy?.allow?.length ?? 0) > 0;

/**
 * Applies `session.configure` to later runs. `toolPolicy` patterns are added to
 * the session's (`ask` and `deny` only; the machine refuses a configure with
 * `allow` before this step).
 */
export const configure: SessionStep = (context, event) => {
  if (event.type !== "session.configure") return {};
  const { policy, model, maxModelCalls, toolPolicy } = event;
  const ask = union(context.toolPolicy?.ask, toolPolicy?.ask);
  const deny = union(context.toolPolicy?.deny, toolPolicy?.deny);
  const tools =
    ask.length + deny.length === 0
      ? {}
      : {
          toolPolicy: {
            ...(ask.length === 0 ? {} : { ask }),
            ...(deny.length === 0 ? {} : { deny }),
          },
        };
  const configured = new Set(context.configured);
  if (policy !== undefined) configured.add("policy");
  if (maxModelCalls !== undefined) configured.add("maxModelCalls");
  return {
    context: {
      ...(policy === undefined ? {} : { policy }),
      ...(model === undefined ? {} : { model }),
      ...(maxModelCalls === undefined ? {} : { maxModelCalls }),
      ...tools,
      configured: [...configured].sort(),
    },
  };
};
