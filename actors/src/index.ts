/**
 * @troupe/actors — the actor host: xstate v5 machines as virtual actors on NATS
 * JetStream (inboxes, events, dead letters, journal) and Redis (shard leases with
 * fencing tokens, snapshot generations, durable timers). See README.md for the
 * guarantees and docs/design.md for the map.
 *
 * Agents and models (`src/agents/`, `src/models/`): `defineAgent` and
 * `AgentRegistry`, `createModelCallHandler` (the `model.call` effect, streamed
 * through the AI SDK), `resolveModel` (`TROUPE_MODEL`, provider specs) and the
 * deterministic `ScriptedModel`. See src/agents/README.md.
 *
 * Tools (`src/tools/`): `defineTool` (zod input schema, effect class, timeout,
 * result size), fences per call (`FenceStore`, `RedisFenceStore`,
 * `InMemoryFenceStore`, `fenceStoreContractCases`) and
 * `createToolExecuteHandler` (the `tool.execute` effect). See src/tools/README.md.
 */
export * from "./errors/lease-lost-error.js";
export * from "./errors/shard-count-mismatch-error.js";
export * from "./host/actor-host.js";
export * from "./host/host-options.js";
export * from "./host/shard-assignment.js";
export * from "./registry/actor-kind.js";
export * from "./step/actor-record.js";
export * from "./step/dead-letter-items.js";
export * from "./step/interpret-actions.js";
export * from "./step/process-message.js";
export * from "./stores/lease-store.js";
export * from "./stores/membership-store.js";
export * from "./stores/redis-keys.js";
export * from "./stores/redis-lease-store.js";
export * from "./stores/redis-membership-store.js";
export * from "./stores/redis-snapshot-store.js";
export * from "./stores/snapshot-store.js";
export * from "./streams/ensure-streams.js";
export * from "./streams/shard-consumer-name.js";
// Stream names are part of the wire contract; kept here for existing imports.
export { streamNames, type StreamNames } from "@troupe/protocol";
export * from "./replay/first-difference.js";
export * from "./replay/journal-reader.js";
export * from "./replay/replay-actor.js";
export * from "./agents/agent-registry.js";
export * from "./agents/build-model-prompt.js";
export * from "./agents/define-agent.js";
export * from "./agents/subagents.js";
export * from "./errors/effect-cancelled-error.js";
export * from "./agents/invalid-agent-error.js";
export * from "./agents/model-call-effect.js";
export * from "./agents/model-call-error.js";
export * from "./agents/model-call-handler.js";
export * from "./agents/model-tools.js";
export * from "./agents/stream-model-call.js";
export * from "./agents/to-model-call-error.js";
export * from "./agents/tool-messages.js";
export * from "./agents/transcript-entry.js";
export * from "./agents/transcript-reader.js";
export * from "./agents/unknown-agent-error.js";
export * from "./models/demo-script.js";
export * from "./models/model-not-configured-error.js";
export * from "./models/model-spec.js";
export * from "./models/resolve-model.js";
export * from "./models/scripted-model.js";
export * from "./models/scripted-step.js";
export * from "./agents/agent-kinds.js";
export * from "./step/transcript-codec.js";
export * from "./transcript/delta-publisher.js";
export * from "./transcript/jetstream-transcript-reader.js";
export * from "./tools/define-tool.js";
export * from "./tools/fence-store.js";
export * from "./tools/fence-store-contract.js";
export * from "./tools/in-memory-fence-store.js";
export * from "./tools/invalid-tool-error.js";
export * from "./tools/redis-fence-store.js";
export * from "./tools/redis-tool-result-store.js";
export * from "./tools/run-tool-attempt.js";
export * from "./tools/tool-arguments.js";
export * from "./tools/tool-execute-effect.js";
export * from "./tools/tool-execute-handler.js";
export * from "./tools/tool-execute-outputs.js";
export * from "./tools/tool-policy.js";
export * from "./tools/tool-record.js";
export * from "./tools/tool-redis-keys.js";
export * from "./tools/tool-result-content.js";
export * from "./tools/tool-result-store.js";
