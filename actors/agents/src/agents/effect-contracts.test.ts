import {
  runMachine,
  runMessageSchemas,
  toolCallMachine,
  toolMessageSchemas,
} from "@troupe/machines";
import {
  decodeEvent,
  encodeMessage,
  shardInboxSubject,
  toolActorId,
  type ActorAddress,
  type EventEnvelope,
} from "@troupe/protocol";
import type { ActorKindDefinition, EffectContext } from "@troupe/runtime";
import {
  decodeActorRecord,
  encodeActorRecord,
  processMessage,
  type ActorRecord,
  type InboxMessage,
} from "@troupe/runtime/internal";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedModel } from "@troupe/models";
import {
  defineTool,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
} from "@troupe/tools/internal";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

// The machines (@troupe/machines) request effects that the handlers here run.
// These tests take the request exactly as the host stores it (the pure step,
// the record through msgpack), give it to the real handler, and deliver the
// handler's output back through the inbox codec: any drift between what a
// machine sends and what a handler reads or returns fails here.

let seq = 0;
function inbox(
  address: ActorAddress,
  type: string,
  payload: Record<string, unknown>,
): InboxMessage {
  seq += 1;
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

/** One host step: the stored record (through msgpack) and a message in, the next record out. */
function step(
  definition: ActorKindDefinition,
  address: ActorAddress,
  record: ActorRecord | undefined,
  message: InboxMessage,
): ActorRecord {
  const stored = record === undefined ? undefined : decodeActorRecord(encodeActorRecord(record));
  const result = processMessage(stored, message, { definition, address });
  if (result.outcome !== "committed") throw new Error(`not committed: ${result.outcome}`);
  if (result.rejection !== undefined) throw result.rejection;
  return result.record;
}

const eventsOf = (record: ActorRecord): EventEnvelope[] =>
  record.outbox
    .filter((item) => item.subject.includes(".events."))
    .map((item) => decodeEvent(item.body, { contentType: item.contentType }));

const context = (effectId: string, address: ActorAddress): EffectContext => ({
  signal: new AbortController().signal,
  address,
  effectId,
  hostRun: () => Promise.resolve(1),
});

describe("the effects the machines request are the effects the handlers run", () => {
  it("a model.call request of the run machine runs in the handler, and its output completes the run", async () => {
    const agents = new AgentRegistry([
      defineAgent({
        name: "assistant",
        instructions: "Be brief.",
        model: new ScriptedModel([{ reasoning: "Hm.", text: "Hello there." }]),
      }),
    ]);
    const transcript = new InMemoryTranscriptReader();
    transcript.append("s1", { role: "user", text: "Hi", messageId: "m0" });
    const handler = createModelCallHandler({ agents, transcript, env: {}, publishDelta: () => {} });
    const run: ActorKindDefinition = {
      kind: "run",
      machine: runMachine,
      version: "test",
      messageSchemas: runMessageSchemas,
    };
    const address = { kind: "run", id: "s1" };

    const calling = step(
      run,
      address,
      undefined,
      inbox(address, "run.start", {
        runId: "r1",
        sessionId: "s1",
        agent: "assistant",
        maxModelCalls: 5,
        transcriptLength: 1,
        toolPolicy: { deny: ["wipe"] },
      }),
    );
    const [request] = decodeActorRecord(encodeActorRecord(calling)).effects;
    expect(request?.effect).toBe("model.call");
    const output = await handler(request!.input, context(request!.effectId, address));
    const done = step(
      run,
      address,
      calling,
      inbox(address, "effect.completed", { effectId: request!.effectId, output }),
    );
    expect(done.effects).toEqual([]);
    expect(eventsOf(done).map((event) => [event.type, event.payload])).toEqual([
      [
        "run.completed",
        {
          runId: "r1",
          text: "Hello there.",
          usage: expect.any(Object) as unknown,
          transcriptLength: 2,
          // The definition the handler reported, kept by the run as its pin.
          definition: { hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string },
        },
      ],
    ]);
  });

  it("a tool.execute request of the tool call machine runs in the handler, and its output completes the call", async () => {
    const tool = defineTool({
      name: "double",
      description: "Doubles n.",
      inputSchema: z.object({ n: z.number() }),
      effectClass: "read",
      execute: ({ n }) => Promise.resolve({ doubled: n * 2 }),
    });
    const agents = new AgentRegistry([
      defineAgent({ name: "assistant", instructions: "-", tools: [tool] }),
    ]);
    const handler = createToolExecuteHandler({
      toolsOf: (name) => agents.get(name).tools,
      idempotencyRecords: new InMemoryIdempotencyRecordStore(),
      results: new InMemoryToolResultStore(),
    });
    const toolKind: ActorKindDefinition = {
      kind: "tool",
      machine: toolCallMachine,
      version: "test",
      messageSchemas: toolMessageSchemas,
    };
    const address = { kind: "tool", id: toolActorId("s1", "r1", "c1") };

    const executing = step(
      toolKind,
      address,
      undefined,
      inbox(address, "tool.start", {
        sessionId: "s1",
        runId: "r1",
        toolCallId: "c1",
        toolName: "double",
        input: '{"n":21}',
        effectClass: "read",
        agent: "assistant",
      }),
    );
    const [request] = decodeActorRecord(encodeActorRecord(executing)).effects;
    expect(request?.effect).toBe("tool.execute");
    const output = await handler(request!.input, context(request!.effectId, address));
    const done = step(
      toolKind,
      address,
      executing,
      inbox(address, "effect.completed", { effectId: request!.effectId, output }),
    );
    expect(eventsOf(done).map((event) => [event.type, event.payload])).toEqual([
      [
        "tool.completed",
        { toolCallId: "c1", runId: "r1", tool: "double", content: '{"doubled":42}' },
      ],
    ]);
  });
});
