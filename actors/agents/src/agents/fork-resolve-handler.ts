import { DeliverPolicy, type JetStreamClient, type JsMsg } from "@nats-io/jetstream";
import {
  CONTENT_TYPE_HEADER,
  FORK_RESOLVE_EFFECT,
  decodeEvent,
  eventWildcard,
  forkResolveInputSchema,
  parseEffectInput,
  type ForkResolveOutput,
} from "@troupe/protocol";
import type { EffectHandler } from "@troupe/runtime";
import type { AgentRegistry } from "./agent-registry.js";
import { findForkPoint, type StoredSessionEvent } from "./fork-point.js";

/** Options of {@link createForkResolveHandler}. */
export interface ForkResolveHandlerOptions {
  /** The agents this host serves (the fork takes its source agent's defaults). */
  readonly agents: AgentRegistry;
  readonly js: JetStreamClient;
  /** The events stream (`StreamNames.events`). */
  readonly eventsStream: string;
}

/**
 * Creates the handler of the `fork.resolve` effect (docs/decisions/0043),
 * which a new session requests on `session.fork`: it reads the source
 * session's stored events (`troupe.session.<from>.events.>`, one ordered
 * consumer), finds the fork point ({@link findForkPoint}) and adds the source
 * agent's defaults. The result is journaled in the new session's inbox, so the
 * fork replays without reading anything; a re-run after a crash reads the same
 * immutable events (only "the last ended run" may have moved on, and either
 * answer is a valid fork of that moment).
 *
 * @param options - agents, JetStream client, events stream name.
 * @returns an `EffectHandler` resolving to `ForkResolveOutput`.
 * @throws (from the handler) ForkPointError `unknown_session`,
 *   `fork_point_out_of_range`, `fork_too_deep`; UnknownAgentError when the
 *   source's agent is not served here; TroupeError `internal` for a malformed input.
 */
export function createForkResolveHandler(options: ForkResolveHandlerOptions): EffectHandler {
  return async (rawInput, context) => {
    const input = parseEffectInput(FORK_RESOLVE_EFFECT, forkResolveInputSchema, rawInput);
    const stored = await readSessionEvents(options, input.from, context.signal);
    const point = findForkPoint(input, stored);
    const agent = options.agents.get(point.agent);
    const output: ForkResolveOutput = {
      ...point,
      policy: agent.settings.policy,
      maxModelCalls: agent.limits.maxModelCalls,
    };
    return output;
  };
}

/** Every stored event on a session's subjects, in stream order (undecodable ones skipped). */
async function readSessionEvents(
  options: ForkResolveHandlerOptions,
  sessionId: string,
  signal: AbortSignal,
): Promise<StoredSessionEvent[]> {
  const consumer = await options.js.consumers.get(options.eventsStream, {
    filter_subjects: eventWildcard({ kind: "session", id: sessionId }),
    deliver_policy: DeliverPolicy.All,
  });
  const info = await consumer.info();
  if (info.num_pending === 0) return [];
  const stored: StoredSessionEvent[] = [];
  const messages = await consumer.consume();
  const stop = () => void messages.close().catch(() => undefined);
  signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const message of messages as AsyncIterable<JsMsg>) {
      try {
        const contentType = message.headers?.get(CONTENT_TYPE_HEADER) || undefined;
        const event = decodeEvent(message.data, contentType === undefined ? {} : { contentType });
        stored.push({ sequence: message.seq, event });
      } catch {
        // An undecodable event says nothing about the fork point.
      }
      if (message.info.pending === 0) break;
    }
  } finally {
    signal.removeEventListener("abort", stop);
    await messages.close().catch(() => undefined);
  }
  signal.throwIfAborted();
  return stored;
}
