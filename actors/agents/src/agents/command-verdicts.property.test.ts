import {
  COMMAND_TYPES,
  DEFAULT_MAX_MODEL_CALLS,
  DEFAULT_SESSION_POLICY,
  sessionMachine,
  sessionMessageSchemas,
  toolCallMachine,
  toolMessageSchemas,
  type SessionContext,
} from "@troupe/machines";
import {
  AGENT_RESOLVE_EFFECT,
  decodeEvent,
  encodeMessage,
  formatAddress,
  shardInboxSubject,
  type ActorAddress,
  type EventEnvelope,
} from "@troupe/protocol";
import { defineActorKind, type ActorKindDefinition } from "@troupe/runtime";
import { processMessage, type ActorRecord, type InboxMessage } from "@troupe/runtime/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Issue #11, "every command gets a verdict": random sequences of commands over
// a session's inbox (valid, invalid, naming unknown runs, calls, questions and
// sessions), interleaved with user messages, agent resolutions and run
// results, go through the host's pure step (decode, validate, transition) and
// the tool call and subagent session actors the session forwards to. Every
// command gets exactly one verdict (`command.settled`, or `message.rejected`
// naming it), and a command refused or left without effect never changes the
// actor's state.

const session = defineActorKind({
  kind: "session",
  machine: sessionMachine,
  version: "test",
  messageSchemas: sessionMessageSchemas,
});
const tool = defineActorKind({
  kind: "tool",
  machine: toolCallMachine,
  version: "test",
  messageSchemas: toolMessageSchemas,
});
const kinds: Record<string, ActorKindDefinition> = { session, tool };
const S1: ActorAddress = { kind: "session", id: "s1" };
const commandTypes: readonly string[] = COMMAND_TYPES;

/** One thing that reaches `session/s1`'s inbox. */
type Input =
  | { readonly kind: "message"; readonly type: string; readonly payload: unknown }
  | { readonly kind: "finish_run" }
  | { readonly kind: "resolve_agents" };

const runId = fc.constantFrom(undefined, "r1", "r2", "r9");
const callId = fc.constantFrom("call_1", "call_2", "bogus");
const sessionIdField = fc.constantFrom(undefined, "s1", "s2", "sub-t1");
const optional = <T>(key: string, value: T | undefined) =>
  value === undefined ? {} : { [key]: value };
const message = (type: string, payload: unknown): Input => ({ kind: "message", type, payload });

const validCommand = fc.oneof(
  runId.map((id) => message("run.cancel", optional("runId", id))),
  fc
    .tuple(fc.constantFrom("shorter", "in French"), runId)
    .map(([text, id]) => message("run.steer", { text, ...optional("runId", id) })),
  fc
    .tuple(fc.constantFrom("tool.approve", "tool.deny"), callId, sessionIdField)
    .map(([type, toolCallId, sessionId]) =>
      message(type, { toolCallId, ...optional("sessionId", sessionId) }),
    ),
  fc.tuple(callId, sessionIdField).map(([questionId, sessionId]) =>
    message("question.answer", {
      questionId,
      text: "Lisbon",
      ...optional("sessionId", sessionId),
    }),
  ),
  fc
    .record(
      {
        policy: fc.constantFrom("enqueue", "reject", "interrupt", "steer"),
        maxModelCalls: fc.integer({ min: 1, max: 5 }),
        toolPolicy: fc.record(
          { ask: fc.constant(["charge"]), allow: fc.constant(["*"]) },
          {
            requiredKeys: [],
          },
        ),
      },
      { requiredKeys: [] },
    )
    .map((payload) => message("session.configure", payload)),
  fc.constant(message("session.close", {})),
);
/** Commands whose payload fails the message schema (the host refuses them before the machine). */
const invalidCommand = fc.oneof(
  fc.constant(message("tool.approve", {})),
  fc.constant(message("tool.deny", { toolCallId: 7 })),
  fc.constant(message("question.answer", { questionId: "q1" })),
  fc.constant(message("run.cancel", { runId: 12 })),
  fc.constant(message("session.configure", { maxModelCalls: 0 })),
  fc.constant(message("run.steer", {})),
);
const userMessage = fc
  .constantFrom("hi", "more", "again")
  .map((text) => message("user.message", { text }));
const input: fc.Arbitrary<Input> = fc.oneof(
  { weight: 5, arbitrary: validCommand },
  { weight: 2, arbitrary: invalidCommand },
  { weight: 2, arbitrary: userMessage },
  { weight: 2, arbitrary: fc.constant<Input>({ kind: "finish_run" }) },
  { weight: 1, arbitrary: fc.constant<Input>({ kind: "resolve_agents" }) },
);

/** A pure stand-in host: records by actor; forwarded messages are routed at once. */
class PureHost {
  readonly records = new Map<string, ActorRecord>();
  readonly events: EventEnvelope[] = [];
  /** Commands sent to `session/s1`: envelope id, the id a dead letter would name, type. */
  readonly commands: { id: string; fallbackId: string; type: string }[] = [];
  /** Commands refused or left without effect that changed the state anyway. */
  readonly stateChangesOnNoOp: string[] = [];
  #seq = 0;
  readonly #answered = new Set<string>();

  /** Publishes a message to `to`'s inbox and processes it (and what it forwards). */
  deliver(to: ActorAddress, type: string, payload: unknown, id: string): void {
    const timestampMs = 1_735_689_600_000 + this.#seq + 1;
    const { bytes, contentType } = encodeMessage({
      v: 1,
      id,
      type,
      payload,
      meta: { timestampMs },
    });
    const command =
      formatAddress(to) === "session/s1" && commandTypes.includes(type) ? { id, type } : undefined;
    this.#process(to, bytes, contentType, command);
  }

  #process(
    to: ActorAddress,
    data: Uint8Array,
    contentType: string,
    command: { id: string; type: string } | undefined,
  ): void {
    this.#seq += 1;
    const seq = this.#seq;
    const actor = formatAddress(to);
    const inbox: InboxMessage = {
      seq,
      subject: shardInboxSubject(0, to),
      data,
      contentType,
      timestampMs: 1_735_689_600_000 + seq,
    };
    const fallbackId = `${actor}:in:${seq}`;
    if (command !== undefined) this.commands.push({ ...command, fallbackId });
    const before = this.records.get(actor);
    const result = processMessage(before, inbox, { definition: kinds[to.kind]!, address: to });
    if (result.outcome === "skipped") return;
    if (result.outcome === "refused") throw result.error;
    const outbox = result.outcome === "committed" ? result.record.outbox : result.outbox;
    if (result.outcome === "committed") this.records.set(actor, result.record);
    const emitted = outbox
      .filter((item) => item.subject.includes(".events."))
      .map((item) => decodeEvent(item.body, { contentType: item.contentType }));
    this.events.push(...emitted);
    if (command !== undefined) {
      // Refused, or answered without effect, in this very step: the machine
      // state must be the one before it.
      const verdict = emitted.find((event) => namesCommand(event, command.id, fallbackId));
      const noOp =
        verdict !== undefined &&
        (verdict.type === "message.rejected" ||
          (verdict.payload as { verdict: string }).verdict !== "applied");
      const after = result.outcome === "committed" ? result.record.state : before?.state;
      if (noOp && JSON.stringify(after) !== JSON.stringify(before?.state)) {
        this.stateChangesOnNoOp.push(`${command.type} (${verdict.type})`);
      }
    }
    // Forwarded messages reach tool call actors and subagent sessions at once;
    // the run actor is not simulated (its results come as `finish_run`).
    for (const item of outbox) {
      const match = /^troupe\.(session|tool)\.([^.]+)\.in$/.exec(item.subject);
      if (match?.[1] === undefined || match[2] === undefined) continue;
      this.#process({ kind: match[1], id: match[2] }, item.body, item.contentType, undefined);
    }
  }

  /** Answers every pending `agent.resolve` of `session/s1` with the default settings. */
  resolveAgents(): void {
    for (const effect of this.records.get("session/s1")?.effects ?? []) {
      if (effect.effect !== AGENT_RESOLVE_EFFECT || this.#answered.has(effect.effectId)) continue;
      this.#answered.add(effect.effectId);
      const output = { policy: DEFAULT_SESSION_POLICY, maxModelCalls: DEFAULT_MAX_MODEL_CALLS };
      this.deliver(
        S1,
        "effect.completed",
        { effectId: effect.effectId, output },
        `fx-${this.#seq}`,
      );
    }
  }

  /** `run.finished` of the active run of `session/s1`, as its run actor sends it. */
  finishRun(): void {
    const state = this.records.get("session/s1")?.state as { context?: SessionContext } | undefined;
    const active = state?.context?.activeRunId;
    if (active === undefined) return;
    const payload = { runId: active, outcome: "completed", transcriptLength: 2, steersApplied: 0 };
    this.deliver(S1, "run.finished", payload, `run/s1:out:${this.#seq}`);
  }
}

function namesCommand(event: EventEnvelope, id: string, fallbackId: string): boolean {
  const payload = event.payload as { commandId?: string; messageId?: string };
  if (event.type === "command.settled") return payload.commandId === id;
  if (event.type === "message.rejected") {
    return payload.messageId === id || payload.messageId === fallbackId;
  }
  return false;
}

describe("session inbox: a verdict for every command (property, issue #11)", () => {
  it("random command sequences: exactly one verdict per command; no state change on a refusal or a no-op", () => {
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 30 }), (inputs) => {
        const host = new PureHost();
        inputs.forEach((next, index) => {
          if (next.kind === "finish_run") host.finishRun();
          else if (next.kind === "resolve_agents") host.resolveAgents();
          else host.deliver(S1, next.type, next.payload, `c${index}`);
        });
        // Held commands get their verdict once the agent is known.
        host.resolveAgents();
        for (const command of host.commands) {
          const verdicts = host.events.filter((event) =>
            namesCommand(event, command.id, command.fallbackId),
          );
          expect(
            verdicts.map((event) => event.type),
            `${command.type} ${command.id}`,
          ).toHaveLength(1);
        }
        expect(host.stateChangesOnNoOp).toEqual([]);
        // Nothing is stored for an actor a command only named.
        const stored = [...host.records.keys()];
        expect(stored.filter((actor) => actor !== "session/s1")).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
