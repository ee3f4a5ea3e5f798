import type {
  CommandOutcome,
  RunOutcome,
  SessionEvent,
  TroupeClient,
  UserMessageInput,
} from "@troupe/client";
import type { ActorAddress, EventEnvelope, EventType, TroupeHistory } from "@troupe/protocol";
import type { ActorHost } from "@troupe/runtime";
import type { Redis } from "ioredis";
import type { TestClock } from "../clock/test-clock.js";
import type { EventExpectation, ExpectedEvents } from "../events/event-expectation.js";
import type { PendingApproval, PendingQuestion, WaitOptions } from "../events/session-waits.js";
import type { TestServersProvider } from "../servers/test-servers-provider.js";
import type { HistoryCassetteReport } from "@troupe/admin";

/**
 * How a run ended (`RunOutcome` of `@troupe/client`: `status` `completed` with
 * `text` and `usage`, `failed` with `code` and `message`, or `cancelled`), plus
 * `events`: the durable events of the session read while waiting, from the
 * message on, in order (deltas left out).
 */
export type TestRunOutcome = RunOutcome & { readonly events: readonly EventEnvelope<EventType>[] };

/** Options of {@link TestDeployment.sendAndWait}. */
export interface TestSendOptions {
  /** How long to wait for the run's end, in ms; default: the deployment's `timeoutMs` (30 000 ms). */
  readonly timeoutMs?: number;
  /** Called with every event read while waiting, deltas included, in order. */
  readonly onEvent?: (event: SessionEvent) => void;
}

/**
 * A running test deployment: see `createTestDeployment`. Every wait has a
 * timeout (default the deployment's `timeoutMs`, 30 000 ms) and fails with a
 * message naming what was missing.
 *
 * Shape: `{ natsUrl, redisUrl, prefix, shardCount, provider, agents, client,
 * hosts, redis, clock, sendAndWait, events, expectEvents, waitForApproval,
 * waitForQuestion, approve, deny, answer, exportHistory, stop }`, and
 * `AsyncDisposable`.
 */
export interface TestDeployment extends AsyncDisposable {
  /** Client URL of the NATS server, e.g. `nats://127.0.0.1:40211`. */
  readonly natsUrl: string;
  /** Client URL of the Redis server, e.g. `redis://127.0.0.1:38893`. */
  readonly redisUrl: string;
  /** Deployment prefix (streams, subjects, keys). */
  readonly prefix: string;
  readonly shardCount: number;
  /** Where the servers came from: `"containers"` or `"local"` binaries. */
  readonly provider: TestServersProvider;
  /** Names of the hosted agents. */
  readonly agents: readonly string[];
  /** A client of the deployment (closed by `stop`). */
  readonly client: TroupeClient;
  /** The in-process hosts serving the agents. */
  readonly hosts: readonly ActorHost[];
  /** A Redis connection to the deployment's server (what agent factories get as `redis`). */
  readonly redis: Redis;
  /** The controllable clock of durable timers: `await clock.advance(ms)`. */
  readonly clock: TestClock;

  /**
   * Sends a user message and waits for the end of the run it starts.
   *
   * @param sessionId - the session (1 to 128 of `[A-Za-z0-9_-]`); created on first use.
   * @param message - the text, or `{ text, clientMessageId?, agent? }` (`agent`
   *   picks the agent of a new session; default the first agent given).
   * @param options - `timeoutMs`, `onEvent`.
   * @returns the outcome with the run's answer (`text`) and the events read.
   * @throws `RunTimeoutError` (code `timeout`) when the run did not end in time
   *   (a tool waiting for approval? see {@link TestDeployment.waitForApproval}).
   * @throws `InvalidAddressError`, `DecodeError` for a bad session id or message, before sending.
   * @throws `MessageRejectedError` when the session refused the message.
   */
  sendAndWait(
    sessionId: string,
    message: string | UserMessageInput,
    options?: TestSendOptions,
  ): Promise<TestRunOutcome>;

  /**
   * The durable events the session holds now, in order (no deltas).
   *
   * @returns the events; empty for a session with none.
   */
  events(sessionId: string): Promise<EventEnvelope<EventType>[]>;

  /**
   * Waits until the session's events hold every expectation, in this order
   * (other events may come between and around them): each an event type or a
   * partial envelope (`{ type, payload: { … } }`, fields not named are ignored).
   *
   * @param expected - e.g. `["tool.approval_requested", { type: "tool.approval_settled", payload: { decision: "timed_out" } }]`.
   * @param options - `timeoutMs`, `fromSequence` (default 1: the whole history).
   * @returns the matching events, one per expectation, each typed by its
   *   expectation's `type` (so `payload` narrows).
   * @throws EventsNotSeenError (code `timeout`) naming the first expectation not
   *   met and every event type seen.
   */
  expectEvents<const E extends readonly EventExpectation[]>(
    sessionId: string,
    expected: E,
    options?: WaitOptions,
  ): Promise<ExpectedEvents<E>>;

  /**
   * Waits for a tool call of the session (or of one of its subagents) that asks
   * for approval and is not settled yet.
   *
   * @param options - `toolName` (only that tool), `timeoutMs`, `fromSequence`.
   * @returns the request: `{ toolCallId, tool, arguments, runId, sessionId, subagentSessionId? }`.
   * @throws EventsNotSeenError (code `timeout`).
   */
  waitForApproval(
    sessionId: string,
    options?: WaitOptions & { readonly toolName?: string },
  ): Promise<PendingApproval>;

  /**
   * Waits for a question of the session (or of a subagent) not answered yet.
   *
   * @returns the question: `{ questionId, text, choices?, runId, sessionId, subagentSessionId? }`.
   * @throws EventsNotSeenError (code `timeout`).
   */
  waitForQuestion(sessionId: string, options?: WaitOptions): Promise<PendingQuestion>;

  /**
   * Approves a tool call and waits for the session's verdict.
   *
   * @param call - a {@link PendingApproval} (a subagent's call is routed through
   *   the parent by itself) or a `toolCallId`.
   * @param options - `note`, kept with the approval.
   * @returns the verdict (`applied`, `already_settled`, `unknown_id`, …).
   * @throws `VerdictTimeoutError` when no host answered within the timeout.
   */
  approve(
    sessionId: string,
    call: PendingApproval | string,
    options?: { readonly note?: string },
  ): Promise<CommandOutcome>;

  /**
   * Denies a tool call and waits for the session's verdict.
   *
   * @param call - a {@link PendingApproval} or a `toolCallId`.
   * @param options - `reason`, shown to the model.
   * @returns the verdict.
   * @throws `VerdictTimeoutError` when no host answered within the timeout.
   */
  deny(
    sessionId: string,
    call: PendingApproval | string,
    options?: { readonly reason?: string },
  ): Promise<CommandOutcome>;

  /**
   * Answers a question of the agent and waits for the session's verdict.
   *
   * @param question - a {@link PendingQuestion} or a `questionId`.
   * @param text - the answer.
   * @returns the verdict.
   * @throws `VerdictTimeoutError` when no host answered within the timeout.
   */
  answer(
    sessionId: string,
    question: PendingQuestion | string,
    text: string,
  ): Promise<CommandOutcome>;

  /**
   * The recorded history of an actor (docs/decisions/0020), for a fixture that
   * `replayHistory` replays offline: its journal re-run through the pure step,
   * every generation, and with `tree` the whole conversation (a session's runs,
   * tool calls, subagents). What `troupe history export` writes; save it with
   * `formatHistory(history, "json")` (re-exported here).
   *
   * @param address - `"session/<id>"` (or `{ kind, id }`); `run/…`, `tool/…` work too.
   * @param options - `tree` (default false).
   * @returns the history: `{ format, formatVersion, root, tree, producer, actors: [...] }`.
   * @throws InvalidAddressError for a malformed address or a kind the agents do not define.
   * @throws ActorNotFoundError when the actor has no stored snapshot (no message reached it yet).
   * @throws HistoryNotReproducibleError when a journal does not reproduce its actor's stored
   *   generations (nothing is returned).
   */
  exportHistory(
    address: string | ActorAddress,
    options?: { readonly tree?: boolean },
  ): Promise<TroupeHistory>;

  /**
   * Writes a model cassette of a conversation (`writeHistoryCassette`): every
   * model request of the session's runs (and its subagents'), rendered as the
   * host rendered it, with the answer it got. Open it with
   * `ModelCassette.open({ file })` to replay the conversation with no model.
   *
   * @param sessionId - the conversation's session.
   * @param file - where to write the cassette (JSON; its folder is created).
   * @returns `{ file, calls, skipped }`.
   * @throws as {@link TestDeployment.exportHistory}.
   */
  exportCassette(sessionId: string, file: string): Promise<HistoryCassetteReport>;

  /**
   * Closes the client, stops the hosts (gracefully), then the servers, and
   * removes their data. Idempotent; `await using` calls it.
   */
  stop(): Promise<void>;
}
