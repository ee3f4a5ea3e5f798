import type { TroupeClient } from "@troupe/client";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AccessScope, GatewayVariables } from "./access.js";

/**
 * A pending approval as the gateway lists it (`GET /v1/approvals`,
 * `GET /v1/sessions/:id`): the `tool.approval_requested` that opened it.
 *
 * Shape: `{ sessionId, ownerSessionId, toolCallId, tool, arguments, runId, sequence, requestedAt }`;
 * `sessionId` is the session whose events carry it (the one to approve
 * through), `ownerSessionId` the session that owns the call (a subagent's
 * `sub-…` session, else the same), `sequence` the events-stream sequence of
 * the request, `requestedAt` its ISO time.
 */
export interface PendingApproval {
  readonly sessionId: string;
  readonly ownerSessionId: string;
  readonly toolCallId: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly runId: string;
  readonly sequence: number;
  readonly requestedAt: string;
}

/**
 * An open question (`question.asked`, the `ask_user` tool) as the gateway
 * lists it (`GET /v1/sessions/:id`); answered with
 * `POST /v1/sessions/:id/questions/:questionId`.
 *
 * Shape: `{ sessionId, ownerSessionId, questionId, runId, text, choices?, sequence, askedAt }`;
 * `sessionId`, `ownerSessionId`, `sequence` as in {@link PendingApproval},
 * `askedAt` the ISO time it was asked.
 */
export interface OpenQuestion {
  readonly sessionId: string;
  readonly ownerSessionId: string;
  readonly questionId: string;
  readonly runId: string;
  readonly text: string;
  readonly choices?: string[];
  readonly sequence: number;
  readonly askedAt: string;
}

/**
 * A session as the fleet index knows it from its events.
 *
 * Shape: `{ sessionId, state: "running" | "idle" | "closed", agent?, lastRunId?, runInProgress?: { runId, sequence }, lastEventAt, lastSequence, pendingApprovals, openQuestions }`;
 * `runInProgress.sequence` is the events-stream sequence of its `run.started`.
 */
export interface SessionSummary {
  readonly sessionId: string;
  readonly state: "running" | "idle" | "closed";
  readonly agent?: string;
  readonly lastRunId?: string;
  /** The session's own run that started and has not ended (not a subagent's). */
  readonly runInProgress?: { readonly runId: string; readonly sequence: number };
  /** ISO time of its latest event. */
  readonly lastEventAt: string;
  /** Events-stream sequence of its latest event. */
  readonly lastSequence: number;
  readonly pendingApprovals: number;
  readonly openQuestions: number;
}

/**
 * The fleet-wide view the gateway keeps from the events stream's wildcard
 * subject (`troupe.session.*.events.>`): pending approvals of every session and
 * the recent sessions. A cache rebuilt from JetStream by each gateway process,
 * so gateways stay stateless.
 */
export interface FleetIndex {
  /** Resolves once the index has read the events stream up to its end at start. */
  ready(): Promise<void>;
  /** Pending approvals the scope reaches, oldest first. */
  pendingApprovals(scope: AccessScope): Promise<PendingApproval[]>;
  /** Sessions the scope reaches, most recent first, at most `limit`. */
  recentSessions(scope: AccessScope, limit: number): Promise<SessionSummary[]>;
  /** A session's summary, if any event of it was seen. */
  session(sessionId: string): Promise<SessionSummary | undefined>;
  /** Pending approvals of one session. */
  sessionApprovals(sessionId: string): Promise<PendingApproval[]>;
  /** Open questions of one session, oldest first. */
  openQuestions(sessionId: string): Promise<OpenQuestion[]>;
  /** Stops following the events stream. */
  close(): Promise<void>;
}

/**
 * What the console's actor, cluster and dead-letter views read: Redis and
 * JetStream through the admin functions of `@troupe/cli` (`troupe inspect`,
 * `troupe status`, `troupe dead-letters`, `troupe replay`). Optional: without
 * it the gateway answers those routes with 503 `unavailable`. Every method
 * returns plain JSON.
 */
export interface ConsoleInspector {
  /** `troupe inspect <kind/id>` as JSON (snapshot generations, lease, …). */
  inspectActor(address: string): Promise<unknown>;
  /** `troupe status` as JSON (hosts, shard ownership, streams). */
  clusterStatus(): Promise<unknown>;
  /** `troupe dead-letters` as JSON, newest first, at most `limit`. */
  deadLetters(limit: number): Promise<unknown>;
  /** `troupe replay <kind/id>` verdict as JSON. */
  replayActor(address: string): Promise<unknown>;
}

/** Limits and knobs of the gateway's routes (all have defaults). */
export interface GatewayLimits {
  /** Largest request body accepted, in bytes; default 1 MiB (`1_048_576`). */
  readonly maxBodyBytes: number;
  /**
   * Largest upload to `POST /v1/media`, in bytes (that route's body limit
   * instead of `maxBodyBytes`); default 20 MiB (`MAX_MEDIA_BYTES`). The
   * client's own `media.maxMediaBytes` applies too.
   */
  readonly maxMediaBytes: number;
  /** Chunks queued per SSE connection for a slow client; default 256. */
  readonly streamBufferChunks: number;
  /** Ms a stream's queue may stay full before the connection is cut; default 15 000. */
  readonly stallTimeoutMs: number;
  /** SSE keep-alive comment interval, ms; default 15 000. */
  readonly keepAliveMs: number;
}

/** Everything a route module needs; built once by `createGateway`. */
export interface GatewayContext {
  readonly client: TroupeClient;
  readonly fleet: FleetIndex;
  readonly inspector: ConsoleInspector | undefined;
  readonly limits: GatewayLimits;
  /** One line per noteworthy happening (stderr by default). */
  readonly log: (line: string) => void;
}

/** The Hono app type of the gateway (its routes see `c.var.scope`). */
export type GatewayApp = OpenAPIHono<{ Variables: GatewayVariables }>;
