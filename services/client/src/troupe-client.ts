import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type PubAck,
} from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import {
  actorAddress,
  assertActorId,
  decodeEvent,
  eventSubject,
  eventWildcard,
  streamNames,
  type StreamNames,
  mediaBucketName,
  type MediaRef,
  withReadDeadline,
  lastStoredMessage,
  DEFAULT_STORE_READ_TIMEOUT_MS,
} from "@troupe/protocol";
import { ClientMedia, type ClientMediaOptions, type UploadMediaOptions } from "./client-media.js";
import { ClientClosedError } from "./client-closed-error.js";
import type { CommandOutcome } from "./command-outcome.js";
import type { ConnectionChange } from "./connection-change.js";
import { findVerdict } from "./find-verdict.js";
import { VerdictTimeoutError } from "./verdict-timeout-error.js";
import { connectNats } from "./connect-nats.js";
import { countStoredMessages } from "./count-stored-messages.js";
import { followSessionEvents } from "./follow-session-events.js";
import { isStreamNotFound } from "./is-stream-not-found.js";
import type { RunOutcome } from "./run-outcome.js";
import type { RunTarget } from "./run-tracker.js";
import type { CommandReceipt, SendReceipt } from "./send-receipt.js";
import type { SessionEvent } from "./session-event.js";
import {
  buildSessionMessage,
  userMessageEnvelopeId,
  type SessionMessage,
  type SessionMessageType,
} from "./session-message.js";
import { SessionPublisher } from "./session-publisher.js";
import { forkCommand, type ForkOptions } from "./fork-options.js";
import { StreamsMissingError } from "./streams-missing-error.js";
import { ScheduleClient } from "./schedule-client.js";
import type { TroupeClientOptions } from "./troupe-client-options.js";
import { resolveDeployment } from "./resolve-deployment.js";
import { toUserMessage, type UserMessageInput } from "./user-message-input.js";
import { waitForRunOutcome, type WaitForRunOptions } from "./wait-for-run-outcome.js";

/** Options of {@link TroupeClient.events}. */
export interface EventsOptions {
  /** First events-stream sequence to yield; default: only events stored after the iteration starts. */
  readonly fromSequence?: number;
  /** Ends the iteration cleanly (no error) when aborted. */
  readonly signal?: AbortSignal;
}

/** Options of {@link TroupeClient.allSessionEvents}. */
export interface AllSessionEventsOptions extends EventsOptions {
  /**
   * Called each time the iteration has yielded everything the events stream
   * held for it (nothing pending), e.g. once caught up with the history; new
   * events may follow at any time.
   */
  readonly onCaughtUp?: () => void;
}

/** How long {@link TroupeClient.awaitVerdict} waits by default: 5 000 ms. */
export const DEFAULT_VERDICT_TIMEOUT_MS = 5_000;

/** Options of {@link TroupeClient.awaitVerdict}. */
export interface AwaitVerdictOptions {
  /** How long to wait for the verdict, in ms; default {@link DEFAULT_VERDICT_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Aborts the wait (rejects with `signal.reason`). */
  readonly signal?: AbortSignal;
}

/** Options of {@link TroupeClient.sendAndWait}: those of `waitForRun` but the start sequence. */
export type SendAndWaitOptions = Omit<WaitForRunOptions, "fromSequence">;

/**
 * The typed client of a Troupe deployment: sends messages to sessions and
 * reads their events, over NATS JetStream. See `client/README.md` for what it
 * guarantees.
 *
 * Every method that names a session validates the id first and throws
 * `InvalidAddressError` before anything is published. Messages are published
 * with a JetStream ack and a `Nats-Msg-Id`, so a retried `send` with the same
 * `clientMessageId` is stored once (and the session admits a client message id
 * once in any case).
 *
 * @example
 * ```ts
 * await using client = await TroupeClient.connect({ natsUrl: "nats://127.0.0.1:4222" });
 * const outcome = await client.sendAndWait("demo-1", "hello", {
 *   timeoutMs: 60_000,
 *   onEvent: ({ event }) => {
 *     if (event.type === "run.delta") process.stdout.write(event.payload.text);
 *   },
 * });
 * if (outcome.status === "completed") console.log(outcome.text);
 * ```
 */
export class TroupeClient implements AsyncDisposable {
  private closed = false;
  private readonly streams: StreamNames;
  private readonly publisher: SessionPublisher;
  #schedules: ScheduleClient | undefined;
  private readonly media: ClientMedia;

  private constructor(
    private readonly nats: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly prefix: string,
    mediaOptions: ClientMediaOptions = {},
  ) {
    this.streams = streamNames(prefix);
    this.publisher = new SessionPublisher(js, jsm, this.streams.inbox, prefix);
    this.media = new ClientMedia(js, mediaBucketName(prefix), mediaOptions);
  }

  /**
   * Schedules of this deployment (docs/capabilities/schedules.md): `create`,
   * `cancel` and `list` the `schedule/<scheduleId>` actors that send
   * user messages to sessions at cron ticks or once.
   */
  get schedules(): ScheduleClient {
    this.#schedules ??= new ScheduleClient(this.nats, this.js, this.jsm, this.prefix);
    return this.#schedules;
  }

  /**
   * Connects to NATS. Once connected, the client reconnects by itself after a
   * lost connection (a server restart), forever, until {@link TroupeClient.close}.
   *
   * Which server, first that is set (`resolveDeployment`, the same
   * lookup as the `troupe` CLI): `options.natsUrl`; `TROUPE_NATS_URL`; the
   * running `troupe dev` (its state file `<TROUPE_HOME or ~/.troupe>/dev.json`,
   * ignored when the process it names is gone); `nats://127.0.0.1:4222`. The
   * prefix: `options.prefix`, `TROUPE_PREFIX`, the running `troupe dev`'s, `"troupe"`.
   *
   * @param options - see {@link TroupeClientOptions}; all optional.
   * @returns a connected client; close it with `close()` or `await using`.
   * @throws {@link NatsUnreachableError} naming the URL(s) when no server answered
   *   within `connectTimeoutMs` (default 5 000 ms).
   * @throws nats.js `AuthorizationError` when the server refused the credentials.
   */
  static async connect(options: TroupeClientOptions = {}): Promise<TroupeClient> {
    const deployment = await resolveDeployment(options);
    const nats = await connectNats({ ...options, natsUrl: deployment.natsUrls });
    try {
      const jsm = await jetstreamManager(nats, { checkAPI: false });
      return new TroupeClient(nats, jetstream(nats), jsm, deployment.prefix, options.media);
    } catch (error) {
      await nats.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Sends a user message to a session (creating the session on its first message).
   *
   * @param sessionId - the session id, 1 to 128 of `[A-Za-z0-9_-]`.
   * @param message - the text, or `{ text, clientMessageId?, agent?, metadata? }`;
   *   without `clientMessageId` a UUID is generated.
   * @returns once JetStream stored the message: see {@link SendReceipt}.
   * @throws `InvalidAddressError` for an invalid session id or client message id
   *   (nothing is published); `DecodeError` (reason `schema_invalid`, the error the
   *   session would reject it with) for a field that breaks the message's schema,
   *   e.g. a blank text or an unknown field (nothing is published);
   *   `PayloadTooLargeError` above 1 MiB encoded.
   * @throws {@link StreamsMissingError} when no host created the streams yet.
   * @throws {@link ClientClosedError} after `close()`.
   * @throws nats.js errors when the publish is not acknowledged (e.g. a timeout).
   */
  async send(sessionId: string, message: UserMessageInput): Promise<SendReceipt> {
    return this.publishUserMessage(this.prepareUserMessage(sessionId, message));
  }

  /**
   * Stores an image or file in the deployment's media Object Store
   * (`<PREFIX>_MEDIA`) and returns its reference, for `send`'s `attachments`
   * (docs/capabilities/media.md). Objects are named by their SHA-256 digest: a
   * repeated or retried upload of the same bytes stores nothing again.
   *
   * @param data - the bytes, 1 to `media.maxMediaBytes` (default 20 MiB).
   * @param options - `mediaType` (e.g. `image/png`, one of `media.allowedMediaTypes`) and `name?`.
   * @returns `{ digest: "sha256:<hex>", mediaType, size (bytes), name? }`.
   * @throws `MediaRejectedError` (`empty`, `too_large`, `type_not_allowed`) before anything is stored.
   * @throws {@link ClientClosedError} after `close()`; nats.js errors when NATS does not answer.
   * @example
   * ```ts
   * const photo = await client.uploadMedia(await readFile("cat.png"), { mediaType: "image/png", name: "cat.png" });
   * await client.send("s1", { text: "What is in this picture?", attachments: [photo] });
   * ```
   */
  async uploadMedia(data: Uint8Array, options: UploadMediaOptions): Promise<MediaRef> {
    this.assertOpen("uploadMedia");
    return this.media.upload(data, options);
  }

  /**
   * Reads a session's events (of the session, its runs, tool calls and
   * subagents): the stored ones from `fromSequence`, then new ones as they come,
   * in stream order, with no gap and no duplicate across reconnects and server
   * restarts. Transient `run.delta` events, kept in their own stream for the
   * deltas retention (default 1 h), are merged in: those stored
   * after event `fromSequence - 1`, never one of a run after its end event
   * (see `DeltaMerger`); a delta's `sequence` is that of the durable event
   * before it.
   *
   * @param sessionId - the session id.
   * @param options - `fromSequence` (default: only new events) and `signal`
   *   (ends the iteration cleanly).
   * @returns an async iterable; `break` also ends it.
   * @throws `InvalidAddressError` at once for an invalid session id.
   * @throws {@link StreamsMissingError} (from the iteration) when the events stream does not exist.
   */
  events(sessionId: string, options: EventsOptions = {}): AsyncIterable<SessionEvent> {
    actorAddress("session", sessionId);
    this.assertOpen("events");
    return this.follow(sessionId, options.fromSequence, options.signal);
  }

  /**
   * Reads the durable events of every session (`troupe.session.*.events.>`,
   * their runs', tool calls' and subagents' included) in events-stream order,
   * with the guarantees of {@link TroupeClient.events}: the stored ones from
   * `fromSequence`, then new ones as they come, no gap and no duplicate
   * across reconnects (one ordered consumer with one filter subject, as
   * nats-server 2.9 allows). Transient events (`run.delta`, `tool.progress`)
   * are not included: they are in the deltas stream. For a fleet-wide view
   * such as the HTTP gateway's approvals inbox; `subject` says
   * which session an event belongs to (`parseEventSubject`).
   *
   * @param options - `fromSequence` (default: only new events; 1 = from the
   *   stream's start), `signal` (ends the iteration cleanly), `onCaughtUp`.
   * @returns an async iterable; `break` also ends it.
   * @throws {@link StreamsMissingError} (from the iteration) when the events stream does not exist.
   * @throws {@link ClientClosedError} at once after `close()`.
   *
   * @example
   * ```ts
   * for await (const { subject, event } of client.allSessionEvents({ fromSequence: 1 })) {
   *   if (event.type === "tool.approval_requested") console.log(subject, event.payload.tool);
   * }
   * ```
   */
  allSessionEvents(options: AllSessionEventsOptions = {}): AsyncIterable<SessionEvent> {
    this.assertOpen("allSessionEvents");
    return this.follow(undefined, options.fromSequence, options.signal, options.onCaughtUp);
  }

  /**
   * Approves a tool call that waits for approval (`tool.approval_requested`).
   *
   * @param sessionId - the session id.
   * @param toolCallId - `toolCallId` of the `tool.approval_requested` event.
   * @param options - `note`, kept with the approval; `subagentSessionId`, when
   *   the call belongs to a subagent (`sessionId` of the approval request): the
   *   session forwards the approval to it.
   * @returns once JetStream stored the message: its envelope id (the session
   *   answers with its verdict, `command.settled` or `message.rejected`,
   *   naming it; {@link TroupeClient.awaitVerdict} waits for it).
   * @throws as {@link TroupeClient.send}.
   */
  async approve(
    sessionId: string,
    toolCallId: string,
    options: { note?: string; subagentSessionId?: string } = {},
  ): Promise<CommandReceipt> {
    return await this.command(sessionId, "tool.approve", {
      toolCallId,
      ...(options.note === undefined ? {} : { note: options.note }),
      ...(options.subagentSessionId === undefined ? {} : { sessionId: options.subagentSessionId }),
    });
  }

  /**
   * Denies a tool call that waits for approval; the model is told, with `reason`.
   *
   * @param sessionId - the session id.
   * @param toolCallId - `toolCallId` of the `tool.approval_requested` event.
   * @param options - `reason`, shown to the model; `subagentSessionId` as for
   *   {@link TroupeClient.approve}.
   * @returns once JetStream stored the message: its envelope id (the session
   *   answers with its verdict, `command.settled` or `message.rejected`,
   *   naming it; {@link TroupeClient.awaitVerdict} waits for it).
   * @throws as {@link TroupeClient.send}.
   */
  async deny(
    sessionId: string,
    toolCallId: string,
    options: { reason?: string; subagentSessionId?: string } = {},
  ): Promise<CommandReceipt> {
    return await this.command(sessionId, "tool.deny", {
      toolCallId,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.subagentSessionId === undefined ? {} : { sessionId: options.subagentSessionId }),
    });
  }

  /**
   * Answers a question the agent asked (`question.asked`).
   *
   * @param sessionId - the session id.
   * @param questionId - `questionId` of the `question.asked` event.
   * @param text - the answer.
   * @param options - `subagentSessionId`, when a subagent asked (`sessionId` of
   *   `question.asked`): the session forwards the answer to it.
   * @returns once JetStream stored the message: its envelope id (the session
   *   answers with its verdict, `command.settled` or `message.rejected`,
   *   naming it; {@link TroupeClient.awaitVerdict} waits for it).
   * @throws as {@link TroupeClient.send}.
   */
  async answer(
    sessionId: string,
    questionId: string,
    text: string,
    options: { subagentSessionId?: string } = {},
  ): Promise<CommandReceipt> {
    return await this.command(sessionId, "question.answer", {
      questionId,
      text,
      ...(options.subagentSessionId === undefined ? {} : { sessionId: options.subagentSessionId }),
    });
  }

  /**
   * Adds guidance to the run in progress; the model sees it at its next call.
   *
   * @param sessionId - the session id.
   * @param text - the guidance.
   * @param options - `runId`; default: the session's current run.
   * @returns once JetStream stored the message: its envelope id (the session
   *   answers with its verdict, `command.settled` or `message.rejected`,
   *   naming it; {@link TroupeClient.awaitVerdict} waits for it).
   * @throws as {@link TroupeClient.send}.
   */
  async steer(
    sessionId: string,
    text: string,
    options: { runId?: string } = {},
  ): Promise<CommandReceipt> {
    return await this.command(sessionId, "run.steer", {
      text,
      ...(options.runId === undefined ? {} : { runId: options.runId }),
    });
  }

  /**
   * Cancels a run; its outcome becomes `cancelled` (`run.cancelled`).
   *
   * @param sessionId - the session id.
   * @param options - `runId` (default: the session's current run) and `reason`.
   * @returns once JetStream stored the message: its envelope id (the session
   *   answers with its verdict, `command.settled` or `message.rejected`,
   *   naming it; {@link TroupeClient.awaitVerdict} waits for it).
   * @throws as {@link TroupeClient.send}.
   */
  async cancel(
    sessionId: string,
    options: { runId?: string; reason?: string } = {},
  ): Promise<CommandReceipt> {
    return await this.command(sessionId, "run.cancel", {
      ...(options.runId === undefined ? {} : { runId: options.runId }),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
    });
  }

  /**
   * Compacts the session's transcript (`session.compact`,
   * docs/capabilities/compaction.md): its next model call — in the run in
   * progress, or the first of the next run — summarises the older entries
   * first, whatever the token budget; `session.compacted` reports it.
   *
   * @param sessionId - the session id.
   * @returns once JetStream stored the message: its envelope id (the session
   *   answers `command.settled` `applied`, or `message.rejected` when closed;
   *   {@link TroupeClient.awaitVerdict} waits for it).
   * @throws as {@link TroupeClient.send}.
   */
  async compact(sessionId: string): Promise<CommandReceipt> {
    return await this.command(sessionId, "session.compact", {});
  }

  /**
   * Forks session `from` into a new session that shares its transcript up to a
   * point without copying it, and has its own future (docs/capabilities/fork.md).
   * The new session answers with `session.forked` and `command.settled`, or
   * `message.rejected` (`unknown_session`, `fork_point_out_of_range`,
   * `session_exists`, `fork_too_deep`, `invalid_fork`); sending the same fork
   * again changes nothing.
   *
   * @param from - the source session.
   * @param options - `to` (default `<from>-fork-<8 hex>`), `atSequence` or `atRunId`
   *   (default: the last run of `from` that ended).
   * @returns once JetStream stored the command: its receipt, `sessionId` being
   *   the new session ({@link TroupeClient.awaitVerdict} waits for the verdict).
   * @throws ZodError for an invalid id or both points; as {@link TroupeClient.send}.
   * @example
   * ```ts
   * const receipt = await client.fork("s1", { atRunId: "r2" });
   * await client.sendAndWait(receipt.sessionId, { text: "what if…" });
   * ```
   */
  async fork(from: string, options: ForkOptions = {}): Promise<CommandReceipt> {
    const { to, payload } = forkCommand(from, options);
    return await this.command(to, "session.fork", { ...payload });
  }

  /**
   * Sends a command (`approve`, `deny`, `answer`, `steer`, `cancel`, or any
   * publish that returns a {@link CommandReceipt}) and waits for the session's
   * verdict on it: one round trip, matched by the command's id (docs/decisions/0013).
   * Reads the events stream's last sequence before publishing, so the verdict
   * cannot be missed.
   *
   * @param sessionId - the session the command goes to.
   * @param send - publishes the command, e.g. `() => client.cancel("s1")`.
   * @param options - `timeoutMs` (default 5 000 ms), `signal`.
   * @returns the verdict: see {@link CommandOutcome}.
   * @throws {@link VerdictTimeoutError} when no verdict came within `timeoutMs`
   *   (no host consumed the command; a session with nothing to act on answers
   *   at once).
   * @throws as `send`, and {@link StreamsMissingError} when no host created the streams.
   *
   * @example
   * ```ts
   * const outcome = await client.awaitVerdict("s1", () => client.deny("s1", "call_1"));
   * if (outcome.verdict === "already_settled") console.log(outcome.reason);
   * ```
   */
  async awaitVerdict(
    sessionId: string,
    send: () => Promise<CommandReceipt>,
    options: AwaitVerdictOptions = {},
  ): Promise<CommandOutcome> {
    actorAddress("session", sessionId);
    this.assertOpen("awaitVerdict");
    options.signal?.throwIfAborted();
    const timeoutMs = options.timeoutMs ?? DEFAULT_VERDICT_TIMEOUT_MS;
    const fromSequence = (await this.lastSequence()) + 1;
    const receipt = await send();
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal =
      options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
    let outcome: CommandOutcome | undefined;
    try {
      outcome = await findVerdict(this.follow(sessionId, fromSequence, signal), receipt);
    } catch (error) {
      if (!signal.aborted) throw error;
    }
    if (outcome !== undefined) return outcome;
    options.signal?.throwIfAborted();
    if (this.closed) throw new ClientClosedError("awaitVerdict");
    throw new VerdictTimeoutError(sessionId, receipt.messageId, timeoutMs);
  }

  /**
   * Waits for the outcome of a run: the one a message started (found through
   * `message.accepted` with the client message id, or the `run.started` of a
   * queued message) or a known `runId`.
   *
   * @param sessionId - the session id.
   * @param run - `{ clientMessageId }` or `{ runId }`.
   * @param options - `fromSequence` (default 1: the session's whole history, so
   *   a run that already ended is found too), `timeoutMs` (default: none),
   *   `signal`, `onEvent` (every event read, once, in order).
   * @returns the outcome (`completed`, `failed` or `cancelled`).
   * @throws `InvalidAddressError` at once for an invalid session id.
   * @throws {@link MessageRejectedError} when the session refused the message.
   * @throws {@link RunTimeoutError} after `timeoutMs`; `signal.reason` on abort.
   * @throws {@link StreamsMissingError} when the events stream does not exist.
   * @throws {@link ClientClosedError} when the client is closed meanwhile.
   */
  async waitForRun(
    sessionId: string,
    run: RunTarget,
    options: WaitForRunOptions = {},
  ): Promise<RunOutcome> {
    actorAddress("session", sessionId);
    this.assertOpen("waitForRun");
    return waitForRunOutcome(
      (fromSequence, signal) => this.follow(sessionId, fromSequence, signal),
      sessionId,
      run,
      options,
    );
  }

  /**
   * Sends a user message and waits for the outcome of its run, without a race:
   * reads the events stream's last sequence before publishing and follows from
   * the sequence after it. A message JetStream reports as a duplicate (a retry
   * within its dedup window) is followed from sequence 1.
   *
   * @param sessionId - the session id.
   * @param message - as {@link TroupeClient.send}.
   * @param options - `timeoutMs` (of the wait, not the publish; default: none),
   *   `signal`, `onEvent`.
   * @returns the outcome.
   * @throws as {@link TroupeClient.send} and {@link TroupeClient.waitForRun};
   *   {@link MessageRejectedError} when the session refused the message.
   */
  async sendAndWait(
    sessionId: string,
    message: UserMessageInput,
    options: SendAndWaitOptions = {},
  ): Promise<RunOutcome> {
    const prepared = this.prepareUserMessage(sessionId, message);
    options.signal?.throwIfAborted();
    const fromSequence = (await this.lastSequence()) + 1;
    const receipt = await this.publishUserMessage(prepared);
    return this.waitForRun(
      sessionId,
      { clientMessageId: receipt.clientMessageId, inboxSequence: receipt.streamSequence },
      { ...options, fromSequence: receipt.duplicate ? 1 : fromSequence },
    );
  }

  /**
   * The events stream's current last sequence.
   *
   * @returns the sequence of the newest stored event, 0 when the stream is empty.
   * @throws {@link StreamsMissingError} when the events stream does not exist.
   * @throws `StoreReadTimeoutError` (`timeout`, retryable) when NATS did not answer
   *   within `DEFAULT_STORE_READ_TIMEOUT_MS` (30 s).
   */
  async lastSequence(): Promise<number> {
    this.assertOpen("lastSequence");
    try {
      const info = await withReadDeadline(() => this.jsm.streams.info(this.streams.events), {
        store: "stream",
        name: this.streams.events,
        timeoutMs: DEFAULT_STORE_READ_TIMEOUT_MS,
      });
      return info.state.last_seq;
    } catch (error) {
      if (isStreamNotFound(error)) {
        throw new StreamsMissingError(this.streams.events, this.prefix, error);
      }
      throw error;
    }
  }

  /**
   * How many durable events of a session the events stream holds now
   * (transient `run.delta` events are in the deltas stream, not counted).
   *
   * @param sessionId - the session; checked like every session id.
   * @returns the count, 0 for a session that never had an event (or whose
   *   events have aged out).
   * @throws {@link InvalidAddressError} for an invalid session id.
   * @throws {@link StreamsMissingError} when the events stream does not exist.
   */
  async storedEventCount(sessionId: string): Promise<number> {
    this.assertOpen("storedEventCount");
    assertActorId(sessionId);
    try {
      return await countStoredMessages(
        this.jsm,
        this.streams.events,
        eventWildcard({ kind: "session", id: sessionId }),
      );
    } catch (error) {
      if (isStreamNotFound(error)) {
        throw new StreamsMissingError(this.streams.events, this.prefix, error);
      }
      throw error;
    }
  }

  /**
   * The latest stored event of one type of a session (its own or of its runs,
   * tool calls and subagents, which publish on its subjects), read in one
   * request by subject (`last_by_subj`) — e.g. the session's latest
   * `run.started` to find the run in progress without reading its history.
   * Durable events only: `run.delta` and `tool.progress` are not
   * in the events stream.
   *
   * @param sessionId - the session.
   * @param eventType - e.g. `"run.started"`.
   * @returns the event with its stream sequence (`pending` 0), or `undefined`
   *   when the session has none of that type (or it aged out, or is not decodable).
   * @throws `InvalidAddressError` for an invalid session id; RangeError for an
   *   invalid event type.
   * @throws {@link StreamsMissingError} when the events stream does not exist.
   */
  async lastEvent(sessionId: string, eventType: string): Promise<SessionEvent | undefined> {
    this.assertOpen("lastEvent");
    const subject = eventSubject({ kind: "session", id: sessionId }, eventType);
    let stored;
    try {
      stored = await lastStoredMessage(this.jsm, this.streams.events, subject);
    } catch (error) {
      if (isStreamNotFound(error)) {
        throw new StreamsMissingError(this.streams.events, this.prefix, error);
      }
      throw error;
    }
    if (stored === null) return undefined;
    try {
      const event = decodeEvent(stored.data, {
        subject: stored.subject,
        contentType: stored.header?.get("Content-Type") || undefined,
      });
      return { sequence: stored.seq, subject: stored.subject, pending: 0, event };
    } catch {
      return undefined;
    }
  }

  /**
   * The NATS server the client is connected to now (or was last), as
   * `host:port` (`troupe chat` names it when the connection is lost).
   */
  get server(): string {
    return this.nats.getServer();
  }

  /** The deployment prefix the client addresses (subjects, stream names); default `"troupe"`. */
  get deploymentPrefix(): string {
    return this.prefix;
  }

  /**
   * The client's NATS connection, for reads the client has no method for
   * (e.g. `@troupe/mcp` reads the transcript stream with it). The client owns
   * it: `close()` closes it; do not close it yourself.
   */
  get natsConnection(): NatsConnection {
    return this.nats;
  }

  /**
   * Calls `listener` on each change of the NATS connection: a lost
   * connection (`disconnected`; the client keeps reconnecting by itself) and
   * its return (`reconnected`). Other nats.js status events are not passed on.
   * Nothing is reported after {@link TroupeClient.close}.
   *
   * @param listener - called with a {@link ConnectionChange}; an exception it
   *   throws ends the listening.
   * @returns a function that stops the listening (safe to call twice).
   * @throws {@link ClientClosedError} after `close()`.
   */
  onConnectionChange(listener: (change: ConnectionChange) => void): () => void {
    this.assertOpen("onConnectionChange");
    const statuses = this.nats.status();
    void (async () => {
      for await (const status of statuses) {
        if (status.type === "disconnect") listener({ kind: "disconnected", server: status.server });
        else if (status.type === "reconnect") {
          listener({ kind: "reconnected", server: status.server });
        }
      }
    })().catch(() => undefined);
    return () => {
      // nats.js returns a queued iterator that can be stopped.
      (statuses as { stop?: () => void }).stop?.();
    };
  }

  /** Closes the connection; running `events()` iterations end. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.nats.close();
  }

  /** Same as {@link TroupeClient.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private prepareUserMessage(sessionId: string, message: UserMessageInput) {
    actorAddress("session", sessionId);
    const payload = toUserMessage(message, () => crypto.randomUUID());
    if (payload.attachments !== undefined) this.media.assertAllowed(payload.attachments);
    const built = buildSessionMessage(sessionId, "user.message", payload, {
      id: userMessageEnvelopeId(payload.clientMessageId),
      timestampMs: Date.now(),
    });
    return {
      sessionId,
      clientMessageId: payload.clientMessageId,
      built,
      attachments: payload.attachments,
    };
  }

  private async publishUserMessage(prepared: {
    sessionId: string;
    clientMessageId: string;
    built: SessionMessage;
    attachments?: readonly MediaRef[] | undefined;
  }): Promise<SendReceipt> {
    // Attachments must be stored before a message names them.
    if (prepared.attachments !== undefined) await this.media.assertStored(prepared.attachments);
    const ack = await this.publish(prepared.built, "send");
    return {
      sessionId: prepared.sessionId,
      messageId: prepared.built.envelope.id,
      clientMessageId: prepared.clientMessageId,
      streamSequence: ack.seq,
      duplicate: ack.duplicate,
    };
  }

  private async command(
    sessionId: string,
    type: SessionMessageType,
    payload: Record<string, unknown>,
  ): Promise<CommandReceipt> {
    const messageId = crypto.randomUUID();
    const built = buildSessionMessage(sessionId, type, payload, {
      id: messageId,
      timestampMs: Date.now(),
    });
    const ack = await this.publish(built, type);
    return { sessionId, messageId, streamSequence: ack.seq };
  }

  private async publish(message: SessionMessage, operation: string): Promise<PubAck> {
    this.assertOpen(operation);
    return this.publisher.publish(message);
  }

  private follow(
    sessionId: string | undefined,
    fromSequence: number | undefined,
    signal?: AbortSignal,
    onCaughtUp?: () => void,
  ) {
    return followSessionEvents({
      js: this.js,
      jsm: this.jsm,
      stream: this.streams.events,
      deltaStream: this.streams.deltas,
      prefix: this.prefix,
      sessionId,
      fromSequence,
      signal,
      lastSequence: () => this.lastSequence(),
      isClosed: () => this.closed || this.nats.isClosed(),
      onCaughtUp,
    });
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new ClientClosedError(operation);
  }
}
