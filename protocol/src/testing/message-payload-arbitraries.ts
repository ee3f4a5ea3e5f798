import fc from "fast-check";
import type { MessageType } from "../v1/message-schemas.js";
import {
  actorIdArbitrary,
  commandTextArbitrary,
  effectClassArbitrary,
  identifierArbitrary,
  modelSpecArbitrary,
  nonEmptyText,
  text,
  timestampMsArbitrary,
  toolCallIdArbitrary,
  wireError,
} from "./field-arbitraries.js";
import { jsonDataArbitrary, jsonRecordArbitrary } from "./json-data-arbitrary.js";

/** Valid payloads of every message type (public and host). */
export const messagePayloadArbitraries: Record<MessageType, fc.Arbitrary<unknown>> = {
  "user.message": fc.record(
    {
      text: commandTextArbitrary,
      clientMessageId: actorIdArbitrary,
      agent: actorIdArbitrary,
      metadata: jsonRecordArbitrary,
    },
    { requiredKeys: ["text"] },
  ),
  "run.cancel": fc.record({ runId: actorIdArbitrary, reason: text }, { requiredKeys: [] }),
  "run.steer": fc.record(
    { text: commandTextArbitrary, runId: actorIdArbitrary },
    { requiredKeys: ["text"] },
  ),
  "tool.approve": fc.record(
    {
      toolCallId: toolCallIdArbitrary,
      note: text,
      sessionId: actorIdArbitrary,
      commandId: identifierArbitrary,
    },
    { requiredKeys: ["toolCallId"] },
  ),
  "tool.deny": fc.record(
    {
      toolCallId: toolCallIdArbitrary,
      reason: text,
      sessionId: actorIdArbitrary,
      commandId: identifierArbitrary,
    },
    { requiredKeys: ["toolCallId"] },
  ),
  "question.answer": fc.record(
    {
      questionId: toolCallIdArbitrary,
      text: commandTextArbitrary,
      sessionId: actorIdArbitrary,
      commandId: identifierArbitrary,
    },
    { requiredKeys: ["questionId", "text"] },
  ),
  "session.fork": fc.oneof(
    fc.record({ from: actorIdArbitrary, atSequence: fc.integer({ min: 1, max: 1000 }) }),
    fc.record({ from: actorIdArbitrary, atRunId: identifierArbitrary }, { requiredKeys: ["from"] }),
  ),
  "session.configure": fc.record(
    {
      policy: fc.constantFrom("enqueue", "reject", "interrupt", "steer"),
      model: modelSpecArbitrary,
      maxModelCalls: fc.integer({ min: 1, max: 1000 }),
      toolPolicy: fc.record(
        {
          ask: fc.array(fc.stringMatching(/^[a-z_*]{1,20}$/), { maxLength: 3 }),
          deny: fc.array(fc.stringMatching(/^[a-z_*]{1,20}$/), { maxLength: 3 }),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  "session.close": fc.constant({}),
  "session.compact": fc.constant({}),
  "run.compact": fc.constant({}),
  "run.start": fc.record(
    {
      runId: identifierArbitrary,
      sessionId: actorIdArbitrary,
      agent: nonEmptyText,
      model: nonEmptyText,
      maxModelCalls: fc.integer({ min: 1, max: 1000 }),
      transcriptLength: fc.nat({ max: 1_000_000 }),
    },
    { requiredKeys: ["runId", "sessionId", "maxModelCalls", "transcriptLength"] },
  ),
  "run.finished": fc.record({
    runId: identifierArbitrary,
    outcome: fc.constantFrom("completed", "failed", "cancelled"),
    transcriptLength: fc.nat({ max: 1_000_000 }),
    steersApplied: fc.nat({ max: 100 }),
  }),
  "subagent.finished": fc.record({
    sessionId: actorIdArbitrary,
    runId: identifierArbitrary,
    outcome: fc.constantFrom("completed", "failed", "cancelled"),
    text,
  }),
  "tool.start": fc.record(
    {
      sessionId: actorIdArbitrary,
      runId: identifierArbitrary,
      toolCallId: identifierArbitrary,
      toolName: nonEmptyText,
      input: text,
      effectClass: effectClassArbitrary,
      agent: nonEmptyText,
    },
    {
      requiredKeys: ["sessionId", "runId", "toolCallId", "toolName", "input", "effectClass"],
    },
  ),
  "tool.finished": fc.record(
    {
      runId: identifierArbitrary,
      toolCallId: identifierArbitrary,
      status: fc.constantFrom("succeeded", "failed", "invalid_arguments", "outcome_unknown"),
      content: text,
      truncated: fc.boolean(),
    },
    { requiredKeys: ["runId", "toolCallId", "status", "content"] },
  ),
  "tool.cancel": fc.record({ runId: identifierArbitrary, toolCallId: identifierArbitrary }),
  "timer.fired": fc.record(
    {
      timerId: identifierArbitrary,
      deadlineMs: timestampMsArbitrary,
      event: fc.tuple(nonEmptyText, jsonRecordArbitrary).map(([type, rest]) => ({ ...rest, type })),
    },
    { requiredKeys: ["timerId"] },
  ),
  "effect.completed": fc.record(
    { effectId: identifierArbitrary, output: jsonDataArbitrary() },
    { requiredKeys: ["effectId"] },
  ),
  "effect.failed": fc.record({ effectId: identifierArbitrary, error: wireError }),
};
