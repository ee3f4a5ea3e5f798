import { commandSettled } from "../host-actions/command-verdict.js";
import type { ToolCallStep } from "./tool-call-steps.js";

// Steps of the tool call machine that answer the commands a session forwards
// (`tool.approve`, `tool.deny`, `question.answer`) with their verdict
// (`command.settled`); tool-call-machine.ts decides when each runs.

const idsOf = (event: Parameters<ToolCallStep>[1]) =>
  event.type === "question.answer"
    ? { questionId: event.questionId }
    : event.type === "tool.approve" || event.type === "tool.deny"
      ? { toolCallId: event.toolCallId }
      : {};

/** The command settled the call: `applied`, with the decision it made. */
export const settleApplied: ToolCallStep = ({ call }, event) => ({
  actions: [
    commandSettled(event, "applied", {
      ...idsOf(event),
      ...(call === undefined ? {} : { runId: call.runId }),
      ...(event.type === "tool.approve"
        ? { decision: "approved" as const }
        : event.type === "tool.deny"
          ? { decision: "denied" as const }
          : {}),
    }),
  ],
});

/** The approval was settled before: `already_settled`, with the first decision. */
export const settleAlreadyDecided: ToolCallStep = ({ call, approval }, event) => ({
  actions: [
    commandSettled(event, "already_settled", {
      ...idsOf(event),
      reason: `tool call ${call?.toolCallId} was ${approval?.replace("_", " ") ?? "settled"} already`,
      ...(call === undefined ? {} : { runId: call.runId }),
      ...(approval === undefined ? {} : { decision: approval }),
    }),
  ],
});

/** The question was answered before (or its call ended otherwise): `already_settled`. */
export const settleAlreadyAnswered: ToolCallStep = ({ call }, event) => ({
  actions: [
    commandSettled(event, "already_settled", {
      ...idsOf(event),
      reason: `question ${call?.toolCallId} was settled already`,
      ...(call === undefined ? {} : { runId: call.runId }),
    }),
  ],
});

/** The call exists but does not wait for this kind of command. */
export const settleNothingToActOn: ToolCallStep = ({ call }, event) => ({
  actions: [
    commandSettled(event, "nothing_to_act_on", {
      ...idsOf(event),
      reason:
        event.type === "question.answer"
          ? `tool call ${call?.toolCallId} asked no question`
          : `tool call ${call?.toolCallId} did not ask for approval`,
      ...(call === undefined ? {} : { runId: call.runId }),
    }),
  ],
});

/**
 * No such call: the actor never received its `tool.start` (a bogus id). The
 * machine stays in its initial state, so the host stores nothing for it.
 */
export const settleUnknownId: ToolCallStep = (_, event) => ({
  actions: [
    commandSettled(event, "unknown_id", {
      ...idsOf(event),
      reason:
        event.type === "question.answer"
          ? `no question ${event.questionId} in this session`
          : `no tool call ${event.type === "tool.approve" || event.type === "tool.deny" ? event.toolCallId : ""} in this session`,
    }),
  ],
});
