import { useEffect, useState } from "react";
import { streamUrl } from "./api.js";
import { When } from "./small-views.js";
import type { SessionEventEnvelope } from "./gateway-shapes.js";

interface Entry {
  cursor: string;
  event: SessionEventEnvelope;
}

const KEEP = 500;

/**
 * The session's event timeline: GET /v1/sessions/:id/events as SSE through
 * EventSource (which resumes by itself with Last-Event-ID after a drop).
 * Transient deltas are folded away; the last {@link KEEP} events are kept.
 */
export function Timeline({
  sessionId,
  onEvent,
}: {
  sessionId: string;
  onEvent?: (event: SessionEventEnvelope) => void;
}) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const source = new EventSource(
      streamUrl(`/v1/sessions/${encodeURIComponent(sessionId)}/events?from=1`),
    );
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    const seen = new Set<string>();
    const onMessage = (message: MessageEvent<string>) => {
      let event: SessionEventEnvelope;
      try {
        event = JSON.parse(message.data) as SessionEventEnvelope;
      } catch {
        return;
      }
      if (event.type === "run.delta" || seen.has(event.id)) return;
      seen.add(event.id);
      setEntries((current) => [...current, { cursor: message.lastEventId, event }].slice(-KEEP));
      onEvent?.(event);
    };
    // Named SSE events (`event: <type>`) do not reach onmessage: listen to each type.
    const types = [
      "session.created",
      "session.idle",
      "session.closed",
      "message.accepted",
      "message.duplicate",
      "message.rejected",
      "command.settled",
      "run.started",
      "run.completed",
      "run.failed",
      "run.cancelled",
      "tool.started",
      "tool.progress",
      "tool.completed",
      "tool.failed",
      "tool.outcome_unknown",
      "tool.approval_requested",
      "tool.approval_settled",
      "question.asked",
      "question.answered",
      "subagent.started",
      "subagent.completed",
    ];
    source.onmessage = onMessage;
    for (const type of types) source.addEventListener(type, onMessage as EventListener);
    return () => source.close();
    // onEvent is a notification only; a new one need not reconnect.
  }, [sessionId]);
  return (
    <div className="timeline" data-testid="timeline">
      <p className="muted small">
        {connected ? "live" : "connecting…"} · {entries.length} events
      </p>
      <ol>
        {[...entries].reverse().map(({ cursor, event }) => (
          <li key={event.id} title={JSON.stringify(event.payload, null, 2)}>
            <span className="seq">{cursor}</span> <When ms={event.meta.timestampMs} />{" "}
            <b>{event.type}</b> <span className="muted">{event.meta.actor}</span>{" "}
            <span className="small">{summary(event)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

function summary(event: SessionEventEnvelope): string {
  const payload = event.payload ?? {};
  const pick = ["tool", "text", "decision", "reason", "question", "runId"]
    .map((key) => payload[key])
    .find((value) => typeof value === "string");
  const text = typeof pick === "string" ? pick : "";
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
