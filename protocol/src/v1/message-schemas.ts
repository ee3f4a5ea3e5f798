import type { PayloadSchemas } from "./payload-of.js";
import {
  effectCompletedSchema,
  effectFailedSchema,
  timerFiredSchema,
} from "./messages/host-messages.js";
import {
  runFinishedSchema,
  runStartSchema,
  subagentFinishedSchema,
} from "./messages/run-messages.js";
import { toolCancelSchema, toolFinishedSchema, toolStartSchema } from "./messages/tool-messages.js";
import {
  questionAnswerSchema,
  runCancelSchema,
  runSteerSchema,
  sessionCloseSchema,
  sessionConfigureSchema,
  toolApproveSchema,
  toolDenySchema,
  userMessageSchema,
} from "./messages/session-commands.js";
import { runCompactSchema, sessionCompactSchema } from "./compaction/compact-messages.js";
import { sessionForkSchema } from "./fork/session-fork.js";

/**
 * A registry of message payload schemas by message type; `decodeMessage` accepts
 * exactly the types it names.
 *
 * Shape: `{ [type: string]: z.ZodType }`.
 */
export type MessageSchemas = PayloadSchemas;

/**
 * The agent messages of version 1, and the default registry of `decodeMessage`:
 * the public commands a session accepts on `troupe.session.<sessionId>.in`
 * (`user.message`, `run.cancel`, `run.steer`, `tool.approve`, `tool.deny`,
 * `question.answer`, `session.configure`, `session.close`) and the messages the
 * session and run actors exchange (`run.start`, session → run; `run.finished`,
 * run → session) and those between a run and its tool call actors (`tool.start`
 * and `tool.cancel`, run → tool; `tool.finished`, tool → run), and
 * `subagent.finished` (a subagent's session → the delegating tool call). Like the host
 * messages, the internal ones should be kept from outside publishers with NATS
 * permissions.
 */
export const builtinMessageSchemas = {
  "user.message": userMessageSchema,
  "run.cancel": runCancelSchema,
  "run.steer": runSteerSchema,
  "tool.approve": toolApproveSchema,
  "tool.deny": toolDenySchema,
  "question.answer": questionAnswerSchema,
  "session.configure": sessionConfigureSchema,
  "session.close": sessionCloseSchema,
  "session.fork": sessionForkSchema,
  "run.start": runStartSchema,
  "run.finished": runFinishedSchema,
  "tool.start": toolStartSchema,
  "tool.finished": toolFinishedSchema,
  "tool.cancel": toolCancelSchema,
  "subagent.finished": subagentFinishedSchema,
  "session.compact": sessionCompactSchema,
  "run.compact": runCompactSchema,
} as const satisfies MessageSchemas;

/**
 * The public commands a session accepts from clients, in one list (docs/decisions/0012):
 * their payloads are strict (an unknown field is refused by name).
 */
export const PUBLIC_COMMAND_TYPES = [
  "user.message",
  "run.cancel",
  "run.steer",
  "tool.approve",
  "tool.deny",
  "question.answer",
  "session.configure",
  "session.close",
  "session.compact",
  "session.fork",
] as const satisfies readonly (keyof typeof builtinMessageSchemas)[];

/** One of {@link VERDICT_COMMAND_TYPES}. */
export type VerdictCommandType = Exclude<(typeof PUBLIC_COMMAND_TYPES)[number], "user.message">;

/**
 * The public commands a session answers with a `command.settled` verdict: every
 * one but `user.message` (answered by `message.accepted` and its run); decision 0013.
 */
export const VERDICT_COMMAND_TYPES: readonly VerdictCommandType[] = PUBLIC_COMMAND_TYPES.filter(
  (type): type is VerdictCommandType => type !== "user.message",
);

/**
 * Internal messages that hosts put into an actor's own inbox: `timer.fired`,
 * `effect.completed`, `effect.failed`. They are not in `builtinMessageSchemas`, so
 * a decoder accepts them only when the host adds them
 * (`{ ...builtinMessageSchemas, ...hostMessageSchemas }`); keep outside
 * publishers from sending them with NATS permissions on `troupe.*.*.in`.
 */
export const hostMessageSchemas = {
  "timer.fired": timerFiredSchema,
  "effect.completed": effectCompletedSchema,
  "effect.failed": effectFailedSchema,
} as const satisfies MessageSchemas;

/** Type of {@link builtinMessageSchemas}. */
export type BuiltinMessageSchemas = typeof builtinMessageSchemas;

/** Every message schema this version defines: public commands and host messages. */
export type KnownMessageSchemas = BuiltinMessageSchemas & typeof hostMessageSchemas;

/** A message type this version defines, public or internal. */
export type MessageType = keyof KnownMessageSchemas;
