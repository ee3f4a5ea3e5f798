import {
  FORK_ERROR_CODES,
  FORK_RESOLVE_EFFECT,
  emitEvent,
  forkResolveOutputSchema,
  requestEffect,
  type ForkResolveInput,
  type SessionFork,
} from "@troupe/protocol";
import { commandSettled } from "../host-actions/command-verdict.js";
import type { MachineStep } from "../host-actions/machine-step.js";
import type { SessionContext } from "./session-context.js";
import type { SessionEvent } from "./session-events.js";
import type { PendingFork, SessionForkOrigin } from "./session-fork-context.js";
import { inheritSettings, sessionSettingsOf } from "./session-settings.js";

// Steps of the session machine that make a new session a fork of another one
// (docs/decisions/0043): `session.fork` asks the host for the fork
// point (`fork.resolve`, journaled), the result becomes the session's
// transcript base. session-machine.ts decides when each runs.

/** A session step that may raise events (the messages that waited for the fork point). */
type ForkStep = (
  context: SessionContext,
  event: SessionEvent,
) => MachineStep<SessionContext, SessionEvent>;

const pointOf = (fork: SessionFork | SessionForkOrigin) => ({
  ...(fork.atSequence === undefined ? {} : { atSequence: fork.atSequence }),
  ...(fork.atRunId === undefined ? {} : { atRunId: fork.atRunId }),
});

/** Whether a `session.fork` repeats the fork this session already is (same source and point). */
export const repeatsFork = (context: SessionContext, event: SessionEvent): boolean =>
  event.type === "session.fork" &&
  context.fork !== undefined &&
  context.fork.from === event.from &&
  context.fork.atSequence === event.atSequence &&
  context.fork.atRunId === event.atRunId;

/** Whether a `session.fork` names the session itself as its source. */
export const forksItself = (context: SessionContext, event: SessionEvent): boolean =>
  event.type === "session.fork" && event.from === context.sessionId;

/**
 * Whether the session may still become a fork: it has no history of its own
 * (no user message admitted, no run, no fork). A `session.configure` before is
 * allowed and kept.
 */
export const mayBecomeFork = (context: SessionContext): boolean =>
  !context.created && context.runCount === 0 && context.fork === undefined;

/** Requests `fork.resolve` (effect id `fork.1`) and keeps the command until the result. */
export const requestFork: ForkStep = (context, event) => {
  if (event.type !== "session.fork") return {};
  const effectId = "fork.1";
  const input: ForkResolveInput = { from: event.from, ...pointOf(event) };
  return {
    context: { pendingFork: { effectId, message: event, waiting: [] } },
    actions: [requestEffect({ effect: FORK_RESOLVE_EFFECT, effectId, input })],
  };
};

/** Whether the event is the result of the `fork.resolve` request the session waits for. */
export const isForkResolution = (context: SessionContext, event: SessionEvent): boolean =>
  (event.type === "effect.completed" || event.type === "effect.failed") &&
  event.effectId === context.pendingFork?.effectId;

/** A message that arrived while the session waits for the fork point: it waits behind. */
export const holdForForkPoint: ForkStep = ({ pendingFork }, event) =>
  pendingFork === undefined
    ? {}
    : { context: { pendingFork: { ...pendingFork, waiting: [...pendingFork.waiting, event] } } };

/**
 * The fork point is known: the session is created as a fork (`session.created`
 * with `forkedFrom`, `session.forked`, `command.settled` `applied`), adopts the
 * source's agent and that agent's defaults, overridden by the source's
 * `session.configure` settings at the fork point (`settings`), overridden in
 * turn by what the fork's own `session.configure` set before (tool policy
 * patterns are united); `session.forked` carries the result. Its transcript
 * continues at `transcriptLength` on top of the base. A malformed result refuses the fork instead (code `internal`).
 */
export const adoptFork: ForkStep = (context, event) => {
  const { pendingFork } = context;
  if (pendingFork === undefined) return {};
  const parsed =
    event.type === "effect.completed" ? forkResolveOutputSchema.safeParse(event.output) : undefined;
  if (parsed === undefined || !parsed.success) {
    return refuse(pendingFork, "internal", `${FORK_RESOLVE_EFFECT} returned no fork point`);
  }
  const point = parsed.data;
  const { message } = pendingFork;
  const agent = point.agent;
  const fork: SessionForkOrigin = { from: message.from, ...pointOf(message) };
  const inherited = inheritSettings(context, point.settings);
  const settings = sessionSettingsOf({ ...context, ...inherited });
  return {
    context: {
      pendingFork: undefined,
      fork,
      created: true,
      agent,
      transcriptLength: point.transcriptLength,
      transcriptBase: point.transcriptBase,
      resolvedAgents: [
        ...context.resolvedAgents.filter((resolved) => resolved.agent !== agent),
        {
          ...(agent === undefined ? {} : { agent }),
          policy: point.policy,
          maxModelCalls: point.maxModelCalls,
        },
      ],
      ...(context.configured.includes("policy") ? {} : { policy: point.policy }),
      ...(context.configured.includes("maxModelCalls")
        ? {}
        : { maxModelCalls: point.maxModelCalls }),
      ...inherited,
    },
    actions: [
      emitEvent("session.created", {
        sessionId: context.sessionId,
        ...(agent === undefined ? {} : { agent }),
        forkedFrom: { sessionId: message.from },
      }),
      emitEvent("session.forked", {
        sessionId: context.sessionId,
        from: message.from,
        transcriptLength: point.transcriptLength,
        transcriptBase: point.transcriptBase,
        ...(point.runId === undefined ? {} : { runId: point.runId }),
        ...pointOf(message),
        ...(agent === undefined ? {} : { agent }),
        ...(Object.keys(settings).length === 0 ? {} : { settings }),
      }),
      commandSettled(message, "applied"),
    ],
    raise: pendingFork.waiting,
  };
};

/**
 * The fork point could not be found (`effect.failed`: `unknown_session`,
 * `fork_point_out_of_range`, `fork_too_deep`, `unknown_agent`, …): the command
 * is refused with `message.rejected` carrying the error's code and text, and
 * the session is unchanged; the messages behind it are taken, in order.
 */
export const rejectFork: ForkStep = (context, event) => {
  const { pendingFork } = context;
  if (pendingFork === undefined) return {};
  const { code, message } =
    event.type === "effect.failed"
      ? event.error
      : { code: "internal", message: `${FORK_RESOLVE_EFFECT} failed` };
  return refuse(pendingFork, code, message);
};

function refuse(
  pendingFork: PendingFork,
  code: string,
  reason: string,
): MachineStep<SessionContext, SessionEvent> {
  return {
    context: { pendingFork: undefined },
    actions: [
      emitEvent("message.rejected", {
        reason,
        code,
        messageId: pendingFork.message.messageId,
        type: pendingFork.message.type,
      }),
    ],
    raise: pendingFork.waiting,
  };
}

/** `session.fork` that repeats this session's fork: `applied` again, nothing changes. */
export const settleRepeatedFork: ForkStep = (_, event) => ({
  actions: [commandSettled(event, "applied")],
});

/** Reason texts of the fork refusals the machine decides itself. */
export const forkRefusal = {
  code: FORK_ERROR_CODES,
  exists: (context: SessionContext) =>
    `session ${context.sessionId} already exists; fork into a new session id`,
  itself: (context: SessionContext) => `session ${context.sessionId} cannot be forked into itself`,
};
