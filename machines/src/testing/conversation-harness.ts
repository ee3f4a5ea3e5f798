import type { TranscriptEntry } from "@troupe/protocol";
import type {
  AppendParams,
  EffectRequestParams,
  EmitEventParams,
  SendMessageParams,
} from "../host-actions/host-actions.js";
import type { RunEvent } from "../run/run-events.js";
import type { SessionEvent } from "../session/session-events.js";
import { TEST_TIME_MS } from "./inbox.js";
import type { RequestedAction } from "./pure-driver.js";
import { newRunActor, runStep, type RunSnapshot } from "./run-kit.js";
import { newSession, sessionStep, type SessionSnapshot } from "./session-kit.js";

/** An event one of the two actors published. */
export interface PublishedEvent {
  readonly actor: "session" | "run";
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/**
 * A hand-driven stand-in for the host, for one session and its run actor: it
 * feeds each machine's `troupe.send` messages to the other machine (in order),
 * keeps the transcript log (checking indexes have no gaps), records events,
 * pending effects, cancelled effects and armed timers. Model calls are answered
 * by the test.
 */
export class TwoActorHarness {
  session: SessionSnapshot = newSession();
  run: RunSnapshot = newRunActor();
  readonly transcript: TranscriptEntry[] = [];
  readonly events: PublishedEvent[] = [];
  readonly pendingEffects = new Map<string, unknown>();
  readonly cancelledEffects: string[] = [];
  readonly armedTimers: string[] = [];
  private readonly mail: { to: "session" | "run"; event: SessionEvent | RunEvent }[] = [];
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

  /** Event types published so far by `actor`. */
  eventTypes(actor: "session" | "run"): string[] {
    return this.events.filter((event) => event.actor === actor).map((event) => event.type);
  }

  private drain(): this {
    for (let next = this.mail.shift(); next !== undefined; next = this.mail.shift()) {
      if (next.to === "session") {
        const step = sessionStep(this.session, next.event as SessionEvent);
        this.session = step.snapshot;
        this.interpret("session", step.actions);
      } else {
        const step = runStep(this.run, next.event as RunEvent);
        this.run = step.snapshot;
        this.interpret("run", step.actions);
      }
    }
    return this;
  }

  private interpret(actor: "session" | "run", actions: readonly RequestedAction[]): void {
    for (const action of actions) {
      switch (action.type) {
        case "troupe.emit": {
          const { type, payload } = action.params as EmitEventParams;
          this.events.push({ actor, type, payload });
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
          const messageId = `${actor}/s1:out:${this.sent}`;
          const event = { ...payload, type, messageId, timestampMs: TEST_TIME_MS };
          this.mail.push({ to: to.startsWith("run/") ? "run" : "session", event } as never);
          break;
        }
        case "troupe.effect": {
          const { effectId, input } = action.params as EffectRequestParams;
          this.pendingEffects.set(effectId ?? "", input);
          break;
        }
        case "troupe.cancelEffect":
          this.cancelledEffects.push((action.params as { effectId: string }).effectId);
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
