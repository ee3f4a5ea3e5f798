import {
  runMachine,
  runMessageSchemas,
  sessionMachine,
  sessionMessageSchemas,
} from "@troupe/machines";
import { decodeEvent, encodeMessage, shardInboxSubject } from "@troupe/protocol";
import type { ActorKindDefinition } from "@troupe/runtime";
import { processMessage, type ActorRecord, type InboxMessage } from "@troupe/runtime/internal";
import { describe, expect, it } from "vitest";
import {
  AGENT_MACHINES_VERSION,
  migrateRunSnapshot,
  migrateSessionSnapshot,
  migrateToolCallSnapshot,
} from "./machine-versions.js";

const address = { kind: "run", id: "s1" };
const run: ActorKindDefinition = {
  kind: "run",
  machine: runMachine,
  version: AGENT_MACHINES_VERSION,
  messageSchemas: runMessageSchemas,
  migrate: migrateRunSnapshot,
};

function inbox(seq: number, type: string, payload: Record<string, unknown>): InboxMessage {
  const timestampMs = 1_735_689_600_000 + seq;
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type,
    payload,
    meta: { timestampMs },
  });
  return { seq, subject: shardInboxSubject(0, address), data: bytes, contentType, timestampMs };
}

const sessionAddress = { kind: "session", id: "s1" };
const session: ActorKindDefinition = {
  kind: "session",
  machine: sessionMachine,
  version: AGENT_MACHINES_VERSION,
  messageSchemas: sessionMessageSchemas,
  migrate: migrateSessionSnapshot,
};

function committed(
  record: ActorRecord | undefined,
  message: InboxMessage,
  definition = run,
): ActorRecord {
  const result = processMessage(record, message, {
    definition,
    address: definition === run ? address : sessionAddress,
  });
  if (result.outcome !== "committed") throw new Error(`not committed: ${result.outcome}`);
  if (result.rejection !== undefined) throw result.rejection;
  return result.record;
}

/** The record as machine version 1 wrote it: the run's `retry` was called `attempt`. */
function asVersion1(record: ActorRecord): ActorRecord {
  const state = record.state as { context: { run: Record<string, unknown> } };
  const { retry, ...run } = state.context.run;
  return {
    ...record,
    machineVersion: "1",
    state: { ...state, context: { ...state.context, run: { ...run, attempt: retry } } },
  };
}

describe("agent machine versions", () => {
  it("a run written by version 1 (waiting for its model call) completes after the upgrade", () => {
    const calling = committed(
      undefined,
      inbox(1, "run.start", {
        runId: "r1",
        sessionId: "s1",
        maxModelCalls: 5,
        transcriptLength: 1,
      }),
    );
    expect(calling.effects.map((effect) => effect.effectId)).toEqual(["r1.m1.a1"]);
    const output = {
      text: "Hi.",
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    const done = committed(
      asVersion1(calling),
      inbox(2, "effect.completed", { effectId: "r1.m1.a1", output }),
    );
    expect(done.machineVersion).toBe(AGENT_MACHINES_VERSION);
    const events = done.outbox
      .filter((item) => item.subject.includes(".events."))
      .map((item) => decodeEvent(item.body, { contentType: item.contentType }).type);
    expect(events).toEqual(["run.completed"]);
  });

  it("a version 1 run's try carries over: its retry after a retryable error is the second try", () => {
    const calling = committed(
      undefined,
      inbox(1, "run.start", {
        runId: "r1",
        sessionId: "s1",
        maxModelCalls: 5,
        transcriptLength: 1,
      }),
    );
    const error = { code: "model_error", message: "overloaded", retryable: true };
    const backoff = committed(
      asVersion1(calling),
      inbox(2, "effect.failed", { effectId: "r1.m1.a1", error }),
    );
    expect((backoff.state as { context: { run: { retry: number } } }).context.run.retry).toBe(1);
    expect(backoff.timers).toHaveLength(1);
  });

  it("a session written by version 1 (created, running) takes later messages after the upgrade", () => {
    const waiting = committed(undefined, inbox(1, "user.message", { text: "one" }), session);
    const running = committed(
      waiting,
      inbox(2, "effect.completed", {
        effectId: "agent.1",
        output: { policy: "enqueue", maxModelCalls: 5 },
      }),
      session,
    );
    // Version 1 knew neither resolvedAgents nor agentResolutions.
    const state = running.state as { context: Record<string, unknown> };
    const { resolvedAgents: _resolved, agentResolutions: _count, ...v1Context } = state.context;
    const version1 = { ...running, machineVersion: "1", state: { ...state, context: v1Context } };
    const next = committed(version1, inbox(3, "user.message", { text: "two" }), session);
    expect(next.effects).toEqual([]);
    const accepted = next.outbox
      .filter((item) => item.subject.includes(".events."))
      .map((item) => decodeEvent(item.body, { contentType: item.contentType }).payload);
    expect(accepted).toEqual([{ messageId: "m3", type: "user.message", queued: true }]);
    expect((next.state as { context: unknown }).context).toMatchObject({
      resolvedAgents: [],
      agentResolutions: 0,
      maxModelCalls: 5,
    });
  });

  it("reads a version 2 snapshot unchanged: the fallback and compaction fields are optional (version 3)", () => {
    const persisted = {
      value: "calling",
      context: { sessionId: "s1", lastRunId: undefined, run: { runId: "r1", retry: 2 } },
    };
    expect(migrateRunSnapshot(persisted, "2")).toBe(persisted);
    expect(migrateSessionSnapshot(persisted, "2")).toBe(persisted);
    expect(migrateToolCallSnapshot(persisted, "2")).toBe(persisted);
  });

  it("reads a version 3 snapshot unchanged: a run without a definition pin pins at its next call (version 4)", () => {
    const persisted = {
      value: "runningTools",
      context: { sessionId: "s1", lastRunId: undefined, run: { runId: "r1", retry: 1 } },
    };
    expect(AGENT_MACHINES_VERSION).toBe("4");
    expect(migrateRunSnapshot(persisted, "3")).toBe(persisted);
    expect(migrateSessionSnapshot(persisted, "3")).toBe(persisted);
    expect(migrateToolCallSnapshot(persisted, "3")).toBe(persisted);
  });

  it("refuses a snapshot of a version it does not know", () => {
    expect(() => migrateRunSnapshot({ context: {} }, "9")).toThrow(
      /run snapshot of agent machine version 9 cannot be read/,
    );
  });
});
