/**
 * @troupe/machines — pure xstate v5 machines and the conventions they use to ask
 * the actor host for IO. Nothing here touches the network, the clock or
 * randomness: time and ids arrive in events, so every machine replays exactly.
 *
 * - **Host actions** (`troupe.effect`, `troupe.send`, `troupe.emit`,
 *   `troupe.append`, `troupe.cancelEffect`): how a machine asks for IO.
 * - **`sessionMachine`** (`session/<sessionId>`): admission of user messages,
 *   the policy for messages that arrive during a run, one run at a time.
 * - **`runMachine`** (`run/<sessionId>`): the agent loop of each run — model
 *   calls with retries, tool calls (reads in parallel, writes in order),
 *   steering, limits and cancellation.
 * - **`toolCallMachine`** (`tool/<toolActorId>`): one tool call — runs the
 *   `tool.execute` effect once and reports how it ended.
 *
 * The package README says what each machine guarantees, message by message.
 *
 * @packageDocumentation
 */
export * from "./host-actions/machine-step.js";
export * from "./host-actions/command-verdict.js";
export * from "./session/session-context.js";
export * from "./session/session-events.js";
export { sessionMachine } from "./session/session-machine.js";
export { runAddressOf } from "./session/session-run-steps.js";
export * from "./run/run-context.js";
export * from "./run/run-events.js";
export * from "./run/model-call-output.js";
export * from "./run/tool-phase.js";
export { toolAddressOf } from "./run/run-tool-steps.js";
export { AVAILABILITY_ERROR_CODES, isAvailabilityError } from "./run/fallback-steps.js";
export { runMachine } from "./run/run-machine.js";
export * from "./tool/tool-call-context.js";
export * from "./tool/tool-call-events.js";
export { toolCallMachine } from "./tool/tool-call-machine.js";
export * from "./tool/tool-call-delegation.js";
export * from "./schedule/schedule-context.js";
export * from "./schedule/schedule-events.js";
export * from "./schedule/schedule-spec.js";
export { scheduleMachine } from "./schedule/schedule-machine.js";
