import type {
  TranscriptEntry,
  AppendParams,
  EffectRequestParams,
  EmitEventParams,
  SendMessageParams,
  ToolExecuteInput,
  ToolExecuteOutput,
} from "@troupe/protocol";
import type { RunEvent } from "../run/run-events.js";
import type { SessionEvent } from "../session/session-events.js";
import type { ToolCallEvent } from "../tool/tool-call-events.js";
import { TEST_TIME_MS } from "./inbox.js";
import type { RequestedAction } from "./pure-driver.js";
import { newRunActor, runStep, type RunSnapshot } from "./run-kit.js";
import { newSession, sessionStep, type SessionSnapshot } from "./session-kit.js";
import { toolCallActorAt, toolStep, type ToolCallSnapshot } from "./tool-kit.js";

/** The kinds of actor a conversation involves. */
export type ConversationActorKind = "session" | "run" | "tool";

/** An event one of the actors published (tool call actors' events belong to the session too). */
export interface PublishedEvent {
  readonly actor: ConversationActorKind;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

type Mail =
  | { readonly to: "session"; readonly event: SessionEvent }
  | { readonly to: "run"; readonly event: RunEvent }
  | { readonly to: "tool"; readonly id: string; readonly event: ToolCallEvent };

/**
 * A hand-driven stand-in for the host, for one session `s1`, its run actor and
 * the tool call actors of its runs: it feeds each machine's `troupe.send`
 * messages to their target (in order, creating tool call actors on first
 * contact), keeps the transcript log (checking indexes have no gaps), records
 * events, pending effects, cancelled effects and armed timers. Model calls and
 * tool executions are answered by the test; the session's `agent.resolve`
 * requests are answered at once with `KIT_AGENT_SETTINGS` (see `sessionStep`).
 */
export class ConversationHarness {
  session: SessionSnapshot = newSession();
  run: RunSnapshot = newRunActor();
  /** Tool call actors by actor id (`toolActorId(...)`). */
  readonly tools = new Map<string, ToolCallSnapshot>();
  readonly transcript: TranscriptEntry[] = [];
  readonly events: PublishedEvent[] = [];
  /** Pending model calls of the run actor, by effect id. */
  readonly pendingEffects = new Map<string, unknown>();
  /** Pending `tool.execute` effects, by tool call id. */
  readonly pendingToolCalls = new Map<string, { actorId: string; input: ToolExecuteInput }>();
  /** Model call effects the run asked to cancel. */
  readonly cancelledEffects: string[] = [];
  /** Tool calls (ids) whose `tool.execute` their actor asked to cancel. */
  readonly cancelledToolCalls: string[] = [];
  readonly armedTimers: string[] = [];
  private readonly mail: Mail[] = [];
  private sent = 0;

  /** Delivers a message to the session, then everything it causes. */
  toSession(event: SessionEvent): this {
    this.mail.push({ to: "session", event });
    return this.drain();
  }

  /**
   * Completes a pending model call with `output`, then delivers everything it
   * causes — or, with `deliver: false`, only queues the result behind the mail
   * already in flight (so a later message can cross it).
   */
  completeEffect(effectId: string, output: unknown, options = { deliver: true }): this {
    if (!this.pendingEffects.delete(effectId)) throw new Error(`no pending effect ${effectId}`);
    this.mail.push({
      to: "run",
      event: { type: "effect.completed", effectId, effect: "model.call", output },
    });
    return options.deliver ? this.drain() : this;
  }

  /** Completes the pending `tool.execute` of call `toolCallId`, then delivers everything it causes. */
  completeToolCall(toolCallId: string, output: ToolExecuteOutput): this {
    const pending = this.pendingToolCalls.get(toolCallId);
    if (pending === undefined) throw new Error(`no pending tool call ${toolCallId}`);
    this.pendingToolCalls.delete(toolCallId);
    this.mail.push({
      to: "tool",
      id: pending.actorId,
      event: { type: "effect.completed", effectId: "execute", effect: "tool.execute", output },
    });
    return this.drain();
  }

  /** Event types published so far by actors of `kind`. */
  eventTypes(kind: ConversationActorKind): string[] {
    return this.events.filter((event) => event.actor === kind).map((event) => event.type);
  }

  private drain(): this {
    for (let next = this.mail.shift(); next !== undefined; next = this.mail.shift()) {
      if (next.to === "session") {
        const step = sessionStep(this.session, next.event);
        this.session = step.snapshot;
        this.interpret("session", "s1", step.actions);
      } else if (next.to === "run") {
        const step = runStep(this.run, next.event);
        this.run = step.snapshot;
        this.interpret("run", "s1", step.actions);
      } else {
        const current = this.tools.get(next.id) ?? toolCallActorAt(next.id);
        const step = toolStep(current, next.event);
        this.tools.set(next.id, step.snapshot);
        this.interpret("tool", next.id, step.actions);
      }
    }
    return this;
  }

  private interpret(
    kind: ConversationActorKind,
    actorId: string,
    actions: readonly RequestedAction[],
  ): void {
    for (const action of actions) {
      switch (action.type) {
        case "troupe.emit": {
          const { type, payload } = action.params as EmitEventParams;
          this.events.push({ actor: kind, type, payload });
          break;
        }
        case "troupe.append": {
          const { index, entry } = action.params as AppendParams;
          if (index !== this.transcript.length) {
            throw new Error(`transcript gap: append at ${index}, length ${this.transcript.length}`);
          }
          this.transcript.push(entry);
          break;
        }
        case "troupe.send": {
          const { to, type, payload } = action.params as SendMessageParams;
          this.sent += 1;
          const messageId = `${kind}/${actorId}:out:${this.sent}`;
          const event = { ...payload, type, messageId, timestampMs: TEST_TIME_MS };
          const [targetKind, targetId = ""] = to.split("/");
          if (targetKind === "tool") {
            this.mail.push({ to: "tool", id: targetId, event: event as ToolCallEvent });
          } else if (targetKind === "run") {
            this.mail.push({ to: "run", event: event as RunEvent });
          } else {
            this.mail.push({ to: "session", event: event as SessionEvent });
          }
          break;
        }
        case "troupe.effect": {
          const { effectId, input } = action.params as EffectRequestParams;
          if (kind === "tool") {
            const toolInput = input as ToolExecuteInput;
            this.pendingToolCalls.set(toolInput.toolCallId, { actorId, input: toolInput });
          } else {
            this.pendingEffects.set(effectId ?? "", input);
          }
          break;
        }
        case "troupe.cancelEffect":
          if (kind === "tool") {
            const call = this.tools.get(actorId)?.context.call;
            this.cancelledToolCalls.push(call?.toolCallId ?? actorId);
          } else {
            this.cancelledEffects.push((action.params as { effectId: string }).effectId);
          }
          break;
        case "xstate.raise":
          this.armedTimers.push((action.params as { id: string }).id);
          break;
        default:
          break;
      }
    }
  }
}
