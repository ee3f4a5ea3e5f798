import fc from "fast-check";
import type { MessageType } from "../v1/message-schemas.js";
import {
  actorIdArbitrary,
  effectClassArbitrary,
  identifierArbitrary,
  nonEmptyText,
  text,
  timestampMsArbitrary,
  wireError,
} from "./field-arbitraries.js";
import { jsonDataArbitrary, jsonRecordArbitrary } from "./json-data-arbitrary.js";

/** Valid payloads of every message type (public and host). */
export const messagePayloadArbitraries: Record<MessageType, fc.Arbitrary<unknown>> = {
  "user.message": fc.record(
    {
      text: nonEmptyText,
      clientMessageId: actorIdArbitrary,
      agent: nonEmptyText,
      metadata: jsonRecordArbitrary,
    },
    { requiredKeys: ["text"] },
  ),
  "run.cancel": fc.record({ runId: identifierArbitrary, reason: text }, { requiredKeys: [] }),
  "run.steer": fc.record({ text, runId: identifierArbitrary }, { requiredKeys: ["text"] }),
  "tool.approve": fc.record(
    {
      toolCallId: identifierArbitrary,
      note: text,
      sessionId: identifierArbitrary,
      commandId: identifierArbitrary,
    },
    { requiredKeys: ["toolCallId"] },
  ),
  "tool.deny": fc.record(
    {
      toolCallId: identifierArbitrary,
      reason: text,
      sessionId: identifierArbitrary,
      commandId: identifierArbitrary,
    },
    { requiredKeys: ["toolCallId"] },
  ),
  "question.answer": fc.record(
    {
      questionId: identifierArbitrary,
      text,
      sessionId: identifierArbitrary,
      commandId: identifierArbitrary,
    },
    { requiredKeys: ["questionId", "text"] },
  ),
  "session.configure": fc.record(
    {
      policy: fc.constantFrom("enqueue", "reject", "interrupt", "steer"),
      model: nonEmptyText,
      maxModelCalls: fc.integer({ min: 1, max: 1000 }),
    },
    { requiredKeys: [] },
  ),
  "session.close": fc.constant({}),
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
