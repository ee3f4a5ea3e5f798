import type { TranscriptBase } from "@troupe/protocol";
import type { SessionEvent, SessionForkEvent } from "./session-events.js";

// The part of the session's context a fork adds: optional fields,
// so snapshots written before forks existed read unchanged.

/** The fork a session is (set once `fork.resolve` answered): the command's source and point. */
export interface SessionForkOrigin {
  readonly from: string;
  readonly atSequence?: number | undefined;
  readonly atRunId?: string | undefined;
}

/** A `session.fork` that waits for its `fork.resolve` result, and the messages behind it. */
export interface PendingFork {
  /** Id of the `fork.resolve` request (`fork.1`). */
  readonly effectId: string;
  readonly message: SessionForkEvent;
  /** Messages that arrived since, in arrival order; taken once the result is in. */
  readonly waiting: readonly SessionEvent[];
}

/** The fork part of the session's context (optional fields: older snapshots read unchanged). */
export interface SessionForkContext {
  /** Set once the session is a fork. */
  readonly fork?: SessionForkOrigin | undefined;
  /** The shared transcript prefix of a fork; passed to each run (`run.start`). */
  readonly transcriptBase?: TranscriptBase | undefined;
  /** Set in state `forking`. */
  readonly pendingFork?: PendingFork | undefined;
}
