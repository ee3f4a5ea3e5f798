import {
  MAX_TRANSCRIPT_BASE_SEGMENTS,
  forkTranscriptBase,
  sessionSettingsSchema,
  type EventEnvelope,
  type ForkResolveInput,
  type SessionSettings,
  type TranscriptBase,
} from "@troupe/protocol";
import { ForkPointError } from "./fork-point-error.js";

/** A stored event of the source session with its events-stream sequence. */
export interface StoredSessionEvent {
  /** The events-stream sequence (what `troupe tail --sequence` shows). */
  readonly sequence: number;
  readonly event: EventEnvelope;
}

/** Where a fork starts, before the agent's settings are added. */
export interface ForkPoint {
  /** Entries shared with the source. */
  readonly transcriptLength: number;
  readonly transcriptBase: TranscriptBase;
  /** The last run of the source included; absent when none had ended. */
  readonly runId?: string;
  /** The source's agent; absent = the host's default agent. */
  readonly agent?: string;
  /**
   * The source's `session.configure` settings at the point (from the last
   * applied configure's `command.settled`, else its own `session.forked`);
   * absent when it had none.
   */
  readonly settings?: SessionSettings;
}

const RUN_END_EVENTS = new Set(["run.completed", "run.failed", "run.cancelled"]);

/**
 * Finds a fork point in the stored events of the source session (docs/decisions/0043):
 * the transcript length the last run that ended at or before the point left
 * (run end events carry `transcriptLength`), or the source's own fork length
 * when no run of it had ended; the source's base, cut there; and the source's
 * `session.configure` settings at the point (`command.settled` of an applied
 * configure carries them, `session.forked` those a fork started with).
 *
 * The point: `atRunId` (that run's end), `atSequence` (an events-stream
 * sequence between the source's first and last stored event), or neither
 * (the last ended run: a run in progress is not included).
 *
 * @param input - the source (`from`) and the point.
 * @param stored - the events published on the source's subjects
 *   (`troupe.session.<from>.events.>`), in stream order; events of other actors
 *   there (its subagents' sessions) are skipped.
 * @returns the fork point.
 * @throws ForkPointError `unknown_session`, `fork_point_out_of_range`, `fork_too_deep`.
 */
export function findForkPoint(
  input: ForkResolveInput,
  stored: readonly StoredSessionEvent[],
): ForkPoint {
  const { from, atSequence, atRunId } = input;
  const own = stored.filter(
    ({ event }) => event.meta.actor === `session/${from}` || event.meta.actor === `run/${from}`,
  );
  const details = { from, ...(atSequence === undefined ? {} : { atSequence }), atRunId };
  if (!own.some(({ event }) => event.type === "session.created")) {
    throw new ForkPointError(
      "unknown_session",
      `session ${from} has no stored history to fork`,
      details,
    );
  }
  const first = own[0]!.sequence;
  const last = own.at(-1)!.sequence;
  if (atSequence !== undefined && (atSequence < first || atSequence > last)) {
    throw new ForkPointError(
      "fork_point_out_of_range",
      `sequence ${atSequence} is outside the events of session ${from} (${first} to ${last})`,
      { ...details, first, last },
    );
  }
  let agent: string | undefined;
  let sourceBase: TranscriptBase = [];
  let length = 0;
  let runId: string | undefined;
  let settings: SessionSettings | undefined;
  let found = atRunId === undefined;
  for (const { sequence, event } of own) {
    if (atSequence !== undefined && sequence > atSequence) break;
    const payload = event.payload as Record<string, unknown>;
    if (event.type === "session.created" && typeof payload["agent"] === "string") {
      agent = payload["agent"];
    } else if (event.type === "session.forked") {
      sourceBase = (payload["transcriptBase"] as TranscriptBase | undefined) ?? [];
      length = typeof payload["transcriptLength"] === "number" ? payload["transcriptLength"] : 0;
      settings = settingsIn(payload) ?? settings;
    } else if (
      event.type === "command.settled" &&
      payload["command"] === "session.configure" &&
      payload["verdict"] === "applied"
    ) {
      settings = settingsIn(payload) ?? settings;
    } else if (RUN_END_EVENTS.has(event.type) && typeof payload["transcriptLength"] === "number") {
      length = payload["transcriptLength"];
      runId = String(payload["runId"]);
      if (runId === atRunId) {
        found = true;
        break;
      }
    }
  }
  if (!found) {
    throw new ForkPointError(
      "fork_point_out_of_range",
      `run ${atRunId} of session ${from} has not ended (or does not exist)`,
      details,
    );
  }
  const transcriptBase = forkTranscriptBase(from, sourceBase, length);
  if (transcriptBase.length > MAX_TRANSCRIPT_BASE_SEGMENTS) {
    throw new ForkPointError(
      "fork_too_deep",
      `a fork of session ${from} would share ${transcriptBase.length} segments (at most ${MAX_TRANSCRIPT_BASE_SEGMENTS})`,
      details,
    );
  }
  return {
    transcriptLength: length,
    transcriptBase,
    ...(runId === undefined ? {} : { runId }),
    ...(agent === undefined ? {} : { agent }),
    ...(settings === undefined || Object.keys(settings).length === 0 ? {} : { settings }),
  };
}

/** The `settings` an event payload carries, if they are well formed. */
function settingsIn(payload: Record<string, unknown>): SessionSettings | undefined {
  const parsed = sessionSettingsSchema.safeParse(payload["settings"]);
  return parsed.success && payload["settings"] !== undefined ? parsed.data : undefined;
}
