import { runAddressOf, toolAddressOf } from "@troupe/machines";
import { parseAddress } from "@troupe/protocol";

/**
 * What the console needs of one event to find the actors of a session: its
 * events-stream sequence, type, payload and emitting actor (`meta.actor`).
 */
export interface ActorSighting {
  readonly sequence: number;
  readonly event: {
    readonly type: string;
    readonly payload: unknown;
    readonly meta: { readonly actor: string };
  };
}

/**
 * An actor of a session as its events show it.
 *
 * Shape: `{ address, kind, id, role, label?, firstSequence, lastSequence, lastEventType }`;
 * `role` is `session` (the session itself), `subagent` (a subagent's `sub-…`
 * session), `run` (a session's or subagent's run actor), `tool` (a tool call)
 * or `other`; `label` names a tool call's tool (`send_email · call-2-1`);
 * sequences are events-stream sequences of its first and latest event.
 */
export interface SessionActorEntry {
  readonly address: string;
  readonly kind: string;
  readonly id: string;
  readonly role: "session" | "subagent" | "run" | "tool" | "other";
  readonly label?: string;
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly lastEventType: string;
}

interface Mutable {
  address: string;
  kind: string;
  id: string;
  role: SessionActorEntry["role"];
  label?: string;
  firstSequence: number;
  lastSequence: number;
  lastEventType: string;
}

/**
 * The actors a session's events reveal, in order of first appearance. Pure.
 *
 * Each event's `meta.actor` is one; a session's run actor (`run/<session>`)
 * is derived from the `run.*` events its session emits; a tool call's actor (`tool/<hash>`) is
 * also derived from the `tool.*` events that name a call (`toolCallId` and
 * `runId` in the payload; its session is the payload's `sessionId`, else the
 * emitting run's or session's id), and a subagent's session from
 * `subagent.started` (`payload.subagent`).
 *
 * @param sessionId - the session whose events these are.
 * @param events - its events, in stream order.
 * @returns one entry per actor.
 */
export function collectSessionActors(
  sessionId: string,
  events: Iterable<ActorSighting>,
): SessionActorEntry[] {
  const actors = new Map<string, Mutable>();
  const see = (address: string, sequence: number, type: string, label?: string) => {
    let parsed;
    try {
      parsed = parseAddress(address);
    } catch {
      return;
    }
    const existing = actors.get(address);
    if (existing === undefined) {
      actors.set(address, {
        address,
        kind: parsed.kind,
        id: parsed.id,
        role: roleOf(sessionId, parsed.kind, parsed.id),
        ...(label === undefined ? {} : { label }),
        firstSequence: sequence,
        lastSequence: sequence,
        lastEventType: type,
      });
      return;
    }
    existing.lastSequence = Math.max(existing.lastSequence, sequence);
    existing.lastEventType = type;
    if (existing.label === undefined && label !== undefined) existing.label = label;
  };
  for (const { sequence, event } of events) {
    see(event.meta.actor, sequence, event.type);
    const payload = (event.payload ?? {}) as Record<string, unknown>;
    // A session's run actor emits nothing itself: its session reports the run.
    const emitter = ownerOf(event.meta.actor);
    if (
      event.type.startsWith("run.") &&
      emitter !== undefined &&
      event.meta.actor.startsWith("session/")
    ) {
      see(runAddressOf(emitter), sequence, event.type);
    }
    if (event.type === "subagent.started" && typeof payload.subagent === "string") {
      see(payload.subagent, sequence, event.type);
    }
    if (
      event.type.startsWith("tool.") &&
      typeof payload.toolCallId === "string" &&
      typeof payload.runId === "string"
    ) {
      const owner =
        typeof payload.sessionId === "string" ? payload.sessionId : ownerOf(event.meta.actor);
      const tool = typeof payload.tool === "string" ? payload.tool : undefined;
      try {
        const address = toolAddressOf(owner ?? sessionId, payload.runId, payload.toolCallId);
        see(
          address,
          sequence,
          event.type,
          tool === undefined ? payload.toolCallId : `${tool} · ${payload.toolCallId}`,
        );
      } catch {
        // An id the address rules refuse: the call's actor cannot exist.
      }
    }
  }
  return [...actors.values()];
}

function roleOf(sessionId: string, kind: string, id: string): SessionActorEntry["role"] {
  if (kind === "session") return id === sessionId ? "session" : "subagent";
  if (kind === "run" || kind === "tool") return kind;
  return "other";
}

/** The session a run or session actor belongs to (`run/<session>` → `<session>`). */
function ownerOf(actor: string): string | undefined {
  try {
    const parsed = parseAddress(actor);
    return parsed.kind === "run" || parsed.kind === "session" ? parsed.id : undefined;
  } catch {
    return undefined;
  }
}
