import { commandSettled } from "../host-actions/command-verdict.js";
import { sessionSettingsOf } from "./session-settings.js";
import type { SessionStep } from "./session-step.js";

// Steps of the session machine that answer a command with its verdict
// (`command.settled`): pure functions of context and event;
// session-machine.ts decides when each runs. A command the session forwards
// (approve, deny, answer) is answered by the tool call or subagent session it
// reaches; a refused one by `message.rejected`.

/**
 * `run.cancel` that reaches the active run: `applied`, or `already_settled`
 * when a cancel was sent to that run before. Runs before `forwardCancel`, so it
 * sees whether one was.
 */
export const settleCancel: SessionStep = (context, event) => ({
  actions: [
    context.cancelRequested
      ? commandSettled(event, "already_settled", {
          reason: `run ${context.activeRunId} is being cancelled already`,
          runId: context.activeRunId,
        })
      : commandSettled(event, "applied", { runId: context.activeRunId }),
  ],
});

/** `run.cancel` with no active run to cancel, or naming a run that is not the active one. */
export const settleNoRunToCancel: SessionStep = (context, event) => {
  const named = event.type === "run.cancel" ? event.runId : undefined;
  const reason =
    context.activeRunId === undefined
      ? `session ${context.sessionId} has no active run`
      : `run ${named} is not the active run (${context.activeRunId})`;
  return {
    actions: [
      commandSettled(event, "nothing_to_act_on", {
        reason,
        ...(named === undefined ? {} : { runId: named }),
      }),
    ],
  };
};

/** A command the session carried out: `applied` (`runId`: the active run, if any). */
export const settleApplied: SessionStep = (context, event) => ({
  actions: [
    commandSettled(
      event,
      "applied",
      context.activeRunId === undefined ? {} : { runId: context.activeRunId },
    ),
  ],
});

/**
 * An applied `session.configure`: `applied`, with the settings the session now
 * runs with beyond its agent's defaults (`settings`), which a fork of it at a
 * later point takes on (docs/decisions/0043). Runs after `configure`, so it sees them.
 */
export const settleConfigured: SessionStep = (context, event) => ({
  actions: [
    commandSettled(event, "applied", {
      ...(context.activeRunId === undefined ? {} : { runId: context.activeRunId }),
      settings: sessionSettingsOf(context),
    }),
  ],
});

/** `session.close` of a session that is closing or closed already. */
export const settleAlreadyClosed: SessionStep = (context, event) => ({
  actions: [
    commandSettled(event, "already_settled", {
      reason: `session ${context.sessionId} is ${context.activeRunId === undefined ? "closed" : "closing"} already`,
    }),
  ],
});

/** `run.cancel` while the session closes: its run is being cancelled already. */
export const settleCancelWhileClosing: SessionStep = (context, event) => ({
  actions: [
    commandSettled(event, "already_settled", {
      reason: `session ${context.sessionId} is closing; its run is being cancelled already`,
      ...(context.activeRunId === undefined ? {} : { runId: context.activeRunId }),
    }),
  ],
});
