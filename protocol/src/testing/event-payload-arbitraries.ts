import fc from "fast-check";
import type { EventType } from "../v1/event-schemas.js";
import {
  actorIdArbitrary,
  addressTextArbitrary,
  effectClassArbitrary,
  identifierArbitrary,
  nonEmptyText,
  text,
  usage,
  wireError,
} from "./field-arbitraries.js";
import { jsonDataArbitrary, jsonRecordArbitrary } from "./json-data-arbitrary.js";

const toolPattern = fc.string({ minLength: 1, maxLength: 16 });
/** `SessionSettings`: what a session's `session.configure`s set. */
const sessionSettingsArbitrary = fc.record(
  {
    policy: fc.constantFrom("enqueue", "reject", "interrupt", "steer"),
    model: fc.stringMatching(/^\S{1,32}$/u),
    maxModelCalls: fc.integer({ min: 1, max: 100 }),
    toolPolicy: fc.record({
      ask: fc.array(toolPattern, { maxLength: 3 }),
      deny: fc.array(toolPattern, { maxLength: 3 }),
    }),
  },
  { requiredKeys: [] },
);

const toolCall = {
  toolCallId: identifierArbitrary,
  runId: identifierArbitrary,
  tool: nonEmptyText,
};
const toolCallKeys: ("toolCallId" | "runId" | "tool")[] = ["toolCallId", "runId", "tool"];

/** Valid payloads of every event type. */
export const eventPayloadArbitraries: Record<EventType, fc.Arbitrary<unknown>> = {
  "session.created": fc.record(
    {
      sessionId: actorIdArbitrary,
      agent: nonEmptyText,
      forkedFrom: fc.record({ sessionId: actorIdArbitrary }),
      metadata: jsonRecordArbitrary,
    },
    { requiredKeys: ["sessionId"] },
  ),
  "session.idle": fc.record(
    { sessionId: actorIdArbitrary, lastRunId: identifierArbitrary },
    { requiredKeys: ["sessionId"] },
  ),
  "session.closed": fc.record(
    { sessionId: actorIdArbitrary, lastRunId: identifierArbitrary },
    { requiredKeys: ["sessionId"] },
  ),
  "session.forked": fc.record(
    {
      sessionId: actorIdArbitrary,
      from: actorIdArbitrary,
      transcriptLength: fc.integer({ min: 0, max: 1000 }),
      transcriptBase: fc.constant([{ sessionId: "a", length: 2 }]),
      runId: identifierArbitrary,
      atSequence: fc.integer({ min: 1, max: 1000 }),
      atRunId: identifierArbitrary,
      agent: nonEmptyText,
      settings: sessionSettingsArbitrary,
    },
    { requiredKeys: ["sessionId", "from", "transcriptLength", "transcriptBase"] },
  ),
  "message.accepted": fc.record(
    {
      messageId: identifierArbitrary,
      type: nonEmptyText,
      clientMessageId: actorIdArbitrary,
      runId: identifierArbitrary,
      queued: fc.boolean(),
    },
    { requiredKeys: ["messageId", "type"] },
  ),
  "message.duplicate": fc.record(
    {
      messageId: identifierArbitrary,
      type: nonEmptyText,
      clientMessageId: actorIdArbitrary,
      originalMessageId: identifierArbitrary,
    },
    { requiredKeys: ["messageId"] },
  ),
  "message.rejected": fc.record(
    {
      reason: text,
      code: nonEmptyText,
      messageId: identifierArbitrary,
      type: text,
      issues: fc.array(jsonDataArbitrary(2), { maxLength: 3 }),
    },
    { requiredKeys: ["reason", "code"] },
  ),
  "command.settled": fc.record(
    {
      commandId: identifierArbitrary,
      command: nonEmptyText,
      verdict: fc.constantFrom("applied", "already_settled", "nothing_to_act_on", "unknown_id"),
      reason: text,
      runId: identifierArbitrary,
      toolCallId: identifierArbitrary,
      questionId: identifierArbitrary,
      decision: fc.constantFrom("approved", "denied", "timed_out"),
      settings: sessionSettingsArbitrary,
    },
    { requiredKeys: ["commandId", "command", "verdict"] },
  ),
  "run.started": fc.record(
    { runId: identifierArbitrary, messageId: identifierArbitrary, agent: nonEmptyText },
    { requiredKeys: ["runId"] },
  ),
  "run.delta": fc.record(
    {
      runId: identifierArbitrary,
      modelCallId: identifierArbitrary,
      attempt: fc.integer({ min: 1, max: 100 }),
      kind: fc.constantFrom("text", "reasoning"),
      text,
    },
    { requiredKeys: ["runId", "attempt", "kind", "text"] },
  ),
  "run.completed": fc.record(
    { runId: identifierArbitrary, text, usage, model: fc.string({ minLength: 1, maxLength: 64 }) },
    { requiredKeys: ["runId", "text", "usage"] },
  ),
  "run.failed": fc.record({ runId: identifierArbitrary, code: nonEmptyText, message: text }),
  "run.cancelled": fc.record(
    { runId: identifierArbitrary, partialText: text, usage, reason: text },
    { requiredKeys: ["runId", "usage"] },
  ),
  "run.model_fallback": fc.record(
    {
      runId: identifierArbitrary,
      modelCallIndex: fc.integer({ min: 1, max: 100 }),
      fromIndex: fc.integer({ min: 0, max: 3 }),
      toIndex: fc.integer({ min: 1, max: 4 }),
      from: fc.string({ minLength: 1, maxLength: 64 }),
      to: fc.string({ minLength: 1, maxLength: 64 }),
      code: nonEmptyText,
      message: text,
      statusCode: fc.integer({ min: 400, max: 599 }),
    },
    {
      requiredKeys: [
        "runId",
        "modelCallIndex",
        "fromIndex",
        "toIndex",
        "from",
        "to",
        "code",
        "message",
      ],
    },
  ),
  "tool.started": fc.record(
    {
      ...toolCall,
      attempt: fc.integer({ min: 1, max: 10 }),
      effectClass: effectClassArbitrary,
      arguments: jsonDataArbitrary(),
    },
    { requiredKeys: toolCallKeys },
  ),
  "tool.progress": fc.record(
    {
      ...toolCall,
      // Whole or fractional, never -0 (JSON has no -0).
      progress: fc.oneof(fc.nat(), fc.double({ min: 0.001, max: 1e9, noNaN: true })),
      total: fc.oneof(fc.nat(), fc.double({ min: 0.001, max: 1e9, noNaN: true })),
      message: text,
      index: fc.nat(),
    },
    { requiredKeys: [...toolCallKeys, "progress", "index"] },
  ),
  "tool.completed": fc.record(
    { ...toolCall, output: jsonDataArbitrary(), content: text, truncated: fc.boolean() },
    { requiredKeys: toolCallKeys },
  ),
  "tool.failed": fc.record({ ...toolCall, error: wireError }),
  "tool.outcome_unknown": fc.record({ ...toolCall, reason: text }, { requiredKeys: toolCallKeys }),
  "tool.approval_requested": fc.record(
    {
      toolCallId: identifierArbitrary,
      tool: nonEmptyText,
      arguments: jsonDataArbitrary(),
      runId: identifierArbitrary,
      sessionId: identifierArbitrary,
    },
    { requiredKeys: ["toolCallId", "tool", "arguments", "runId"] },
  ),
  "tool.approval_settled": fc.record(
    {
      toolCallId: identifierArbitrary,
      decision: fc.constantFrom("approved", "denied", "timed_out"),
      alreadySettled: fc.boolean(),
    },
    { requiredKeys: ["toolCallId", "decision"] },
  ),
  "question.asked": fc.record(
    {
      questionId: identifierArbitrary,
      runId: identifierArbitrary,
      text,
      choices: fc.array(text, { maxLength: 4 }),
      sessionId: identifierArbitrary,
    },
    { requiredKeys: ["questionId", "runId", "text"] },
  ),
  "question.answered": fc.record(
    { questionId: identifierArbitrary, text, runId: identifierArbitrary },
    { requiredKeys: ["questionId", "text"] },
  ),
  "subagent.started": fc.record(
    { subagent: addressTextArbitrary, runId: identifierArbitrary, task: text, agent: nonEmptyText },
    { requiredKeys: ["subagent", "runId", "task"] },
  ),
  "subagent.completed": fc.record(
    { subagent: addressTextArbitrary, runId: identifierArbitrary, text, usage },
    { requiredKeys: ["subagent", "runId", "text"] },
  ),
  "schedule.created": fc.record(
    {
      scheduleId: actorIdArbitrary,
      sessionId: actorIdArbitrary,
      text: nonEmptyText,
      cron: fc.constant("0 9 * * 1-5"),
      timezone: fc.constant("Europe/Paris"),
      catchUp: fc.constantFrom("skip" as const, "once" as const),
      misfireThresholdMs: fc.nat(),
      nextTickMs: fc.nat(),
      commandId: identifierArbitrary,
    },
    {
      requiredKeys: [
        "scheduleId",
        "sessionId",
        "text",
        "catchUp",
        "misfireThresholdMs",
        "nextTickMs",
        "commandId",
      ],
    },
  ),
  "schedule.fired": fc.record(
    {
      scheduleId: actorIdArbitrary,
      sessionId: actorIdArbitrary,
      tickMs: fc.nat(),
      firedAtMs: fc.nat(),
      messageId: identifierArbitrary,
      missedTicks: fc.nat(),
      catchUp: fc.boolean(),
      nextTickMs: fc.nat(),
    },
    {
      requiredKeys: [
        "scheduleId",
        "sessionId",
        "tickMs",
        "firedAtMs",
        "messageId",
        "missedTicks",
        "catchUp",
      ],
    },
  ),
  "schedule.skipped": fc.record(
    {
      scheduleId: actorIdArbitrary,
      missedTicks: fc.integer({ min: 1, max: 10_000 }),
      firstMissedTickMs: fc.nat(),
      lastMissedTickMs: fc.nat(),
      nextTickMs: fc.nat(),
    },
    { requiredKeys: ["scheduleId", "missedTicks", "firstMissedTickMs", "lastMissedTickMs"] },
  ),
  "schedule.completed": fc.record({ scheduleId: actorIdArbitrary }),
  "schedule.cancelled": fc.record(
    { scheduleId: actorIdArbitrary, commandId: identifierArbitrary, reason: text },
    { requiredKeys: ["scheduleId", "commandId"] },
  ),
  "schedule.rejected": fc.record({
    scheduleId: actorIdArbitrary,
    commandId: identifierArbitrary,
    command: fc.constantFrom("schedule.create", "schedule.cancel"),
    code: fc.constantFrom(
      "invalid_id" as const,
      "invalid_cron" as const,
      "invalid_timezone" as const,
      "no_future_tick" as const,
      "already_exists" as const,
      "not_found" as const,
      "already_settled" as const,
    ),
    message: text,
  }),
  "budget.warning": fc.record({
    runId: identifierArbitrary,
    scope: fc.constantFrom("run", "session", "agent_day"),
    scopeId: fc.string({ minLength: 1, maxLength: 40 }),
    unit: fc.constantFrom("tokens", "usd"),
    spent: fc.integer({ min: 0, max: 1_000_000 }),
    limit: fc.integer({ min: 0, max: 1_000_000 }),
    warnAt: fc.double({ min: 0.01, max: 1, noNaN: true }),
  }),
  "session.compacted": fc.record(
    {
      sessionId: actorIdArbitrary,
      runId: identifierArbitrary,
      summaryIndex: fc.nat(),
      through: fc.integer({ min: 1 }),
      tokensBefore: fc.nat(),
      tokensAfter: fc.nat(),
      reason: fc.constantFrom("budget", "manual"),
      model: nonEmptyText,
      usage,
    },
    {
      requiredKeys: [
        "sessionId",
        "runId",
        "summaryIndex",
        "through",
        "tokensBefore",
        "tokensAfter",
        "reason",
        "usage",
      ],
    },
  ),
};
