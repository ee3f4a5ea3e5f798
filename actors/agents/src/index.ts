/**
 * @troupe/agents — durable AI agents on `@troupe/runtime`: every session, run
 * (turn), tool call and subagent is an actor whose pure machine comes from
 * `@troupe/machines`; models are called through the Vercel AI SDK (`ai`).
 *
 * - {@link defineAgent} / {@link defineTool}: an agent's model, instructions,
 *   tools (zod input schema, effect class, timeout, result size), policy and
 *   subagents. See src/agents/README.md, and `@troupe/tools`' src/tools/README.md.
 * - {@link agentKinds}: the `session`, `run` and `tool` actor kinds for
 *   `ActorHost.start({ kinds })`, with the `agent.resolve` effect wired to the
 *   agent registry (a session's agent settings are journaled), `model.call` to
 *   the AI SDK and `tool.execute` to the agents' tools, each call behind an
 *   idempotency record.
 * - {@link replayHistory} / {@link replayHistories}: replay recorded histories
 *   (`troupe history export`) offline with the agent machines and report the
 *   first divergence; {@link agentMachineKinds} are those machines
 *   as pure kind definitions.
 * - Spend limits: `limits.budget` of {@link defineAgent}
 *   ({@link BudgetOptions}), {@link BudgetExceededError}, {@link SpendReport}
 *   (what `troupe usage` reads). See docs/capabilities/spend-limits.md.
 * - {@link resolveModel} (`TROUPE_MODEL`, provider specs) and the deterministic
 *   {@link ScriptedModel} for demos and tests.
 *
 * Tools, MCP servers' tools and media are `@troupe/tools`', models and spend
 * limits `@troupe/models`': re-exported here whole, so that one import is enough.
 *
 * Internals (the effect handlers, stores, prompt building) are in
 * `@troupe/agents/internal`, for Troupe's own packages and tests only.
 *
 * @packageDocumentation
 */
export * from "@troupe/tools";
export * from "@troupe/models";
export * from "./agents/agent-definition.js";
export * from "./agents/agent-kinds.js";
export {
  SCHEDULE_MACHINE_VERSION,
  scheduleKind,
  scheduleMachineKind,
} from "./schedules/schedule-kind.js";
export { JetStreamScheduleIndex } from "./schedules/jetstream-schedule-index.js";
export * from "./agents/define-agent.js";
export * from "./agents/invalid-agent-error.js";
export * from "./agents/model-call-error.js";
export { MAX_MODEL_OUTPUT_BYTES } from "./agents/model-output-size.js";
export * from "./agents/replay-history.js";
export * from "./agents/subagents.js";
export {
  formatHistoryReplayReport,
  type ActorReplayReport,
  type HistoryDivergence,
  type HistoryReplayReport,
  type ReplayedStep,
  type RequestedEffect,
} from "@troupe/runtime";
export * from "./agents/unknown-agent-error.js";
export { DefinitionUnavailableError } from "./agents/pinned-definitions.js";
export {
  agentDefinitionRecordSchema,
  definitionRecordOf,
  type AgentDefinitionRecord,
  type HashedDefinitionRecord,
} from "./agents/definition-record.js";
export * from "./agents/context-budget.js";
export {
  COMPACTION_INSTRUCTIONS,
  COMPACTION_INSTRUCTIONS_MARKER,
} from "./agents/summarise-transcript.js";
