import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import {
  decodeEvent,
  encodeMessage,
  eventWildcard,
  formatAddress,
  inboxSubject,
  scheduleIndexEntrySchema,
  scheduleIndexStreamName,
  type CatchUpPolicy,
  type EventEnvelope,
  type ScheduleCancelled,
  type ScheduleCreated,
  type ScheduleIndexEntry,
  type ScheduleRejectionCode,
  lastStoredMessage,
} from "@troupe/protocol";
import { ScheduleRejectedError } from "./schedule-rejected-error.js";
import { VerdictTimeoutError } from "./verdict-timeout-error.js";

/** What {@link ScheduleClient.create} sends (`schedule.create`, docs/capabilities/schedules.md). */
export interface ScheduleCreateInput {
  /** The schedule's id (actor-id-safe, ≤ 96 characters); default a random `sch-…` id. */
  readonly scheduleId?: string;
  /** The session that receives the messages. */
  readonly sessionId: string;
  /** The text of every `user.message` the schedule sends. */
  readonly text: string;
  /** Cron pattern, 5 fields (or 6, seconds first), read in `timezone`. Exactly one of `cron` and `at`. */
  readonly cron?: string;
  /** One-shot instant: a `Date`, Unix ms, or an ISO 8601 string. */
  readonly at?: Date | number | string;
  /** IANA time zone of the pattern (`"Europe/Paris"`); default UTC. */
  readonly timezone?: string;
  /** Ticks missed while no host ran: `"skip"` (default) or `"once"`. */
  readonly catchUp?: CatchUpPolicy;
  /** How late a firing may be and still count as on time, in ms; default 60,000. */
  readonly misfireThresholdMs?: number;
  /** Agent the session runs for these messages. */
  readonly agent?: string;
}

/** Options of a schedule command. */
export interface ScheduleCommandOptions {
  /** How long to wait for the schedule's answer, in ms; default 10,000. */
  readonly timeoutMs?: number;
}

/**
 * Creates, cancels and lists schedules (docs/capabilities/schedules.md): the
 * client half of the `schedule/<scheduleId>` actors. A command is published to
 * `troupe.schedule.<scheduleId>.in` and answered by an event on
 * `troupe.schedule.<scheduleId>.events.>` naming its envelope id.
 * Get one from `TroupeClient.schedules`.
 */
export class ScheduleClient {
  /**
   * @param nats - connection (live event subscription).
   * @param js - JetStream client (publishes with an ack).
   * @param jsm - JetStream manager (reads the listing).
   * @param prefix - deployment prefix.
   */
  constructor(
    private readonly nats: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly prefix: string,
  ) {}

  /**
   * Creates a schedule and waits until it exists.
   *
   * @param input - session, text, `cron` (+ `timezone`) or `at`, catch-up policy.
   * @param options - `timeoutMs` (default 10,000 ms).
   * @returns the `schedule.created` payload (its `nextTickMs`, Unix ms).
   * @throws ScheduleRejectedError when the schedule refuses it (bad cron or
   *   time zone, no future tick, id taken) or its schema does (`invalid_command`).
   * @throws VerdictTimeoutError when no answer comes within `timeoutMs`.
   * @throws InvalidAddressError for an id that is not actor-id-safe.
   */
  async create(
    input: ScheduleCreateInput,
    options: ScheduleCommandOptions = {},
  ): Promise<ScheduleCreated> {
    const scheduleId = input.scheduleId ?? `sch-${crypto.randomUUID().slice(0, 12)}`;
    const payload = {
      sessionId: input.sessionId,
      text: input.text,
      ...(input.cron === undefined ? {} : { cron: input.cron }),
      ...(input.at === undefined ? {} : { at: toUnixMs(input.at, scheduleId) }),
      ...(input.timezone === undefined ? {} : { timezone: input.timezone }),
      ...(input.catchUp === undefined ? {} : { catchUp: input.catchUp }),
      ...(input.misfireThresholdMs === undefined
        ? {}
        : { misfireThresholdMs: input.misfireThresholdMs }),
      ...(input.agent === undefined ? {} : { agent: input.agent }),
    };
    const event = await this.#command(
      scheduleId,
      "schedule.create",
      payload,
      "schedule.created",
      options,
    );
    return event.payload as ScheduleCreated;
  }

  /**
   * Cancels a schedule: no tick fires after it.
   *
   * @param scheduleId - the schedule.
   * @param options - `reason` and `timeoutMs` (default 10,000 ms).
   * @returns the `schedule.cancelled` payload.
   * @throws ScheduleRejectedError `not_found` / `already_settled`.
   * @throws VerdictTimeoutError when no answer comes within `timeoutMs`.
   */
  async cancel(
    scheduleId: string,
    options: ScheduleCommandOptions & { readonly reason?: string } = {},
  ): Promise<ScheduleCancelled> {
    const payload = options.reason === undefined ? {} : { reason: options.reason };
    const event = await this.#command(
      scheduleId,
      "schedule.cancel",
      payload,
      "schedule.cancelled",
      options,
    );
    return event.payload as ScheduleCancelled;
  }

  /**
   * The deployment's schedules as their actors last recorded them (the
   * `<P>_SCHEDULES` listing stream; an entry follows its schedule's events
   * within moments, written by the `schedule.index` effect).
   *
   * @param filter - `sessionId`: only the schedules of one session; `status`: only those in it.
   * @returns entries sorted by schedule id (empty when no schedule was ever created).
   */
  async list(
    filter: { readonly sessionId?: string; readonly status?: ScheduleIndexEntry["status"] } = {},
  ): Promise<ScheduleIndexEntry[]> {
    const stream = scheduleIndexStreamName(this.prefix);
    let subjects: Record<string, number>;
    try {
      const info = await this.jsm.streams.info(stream, { subjects_filter: ">" });
      subjects = info.state.subjects ?? {};
    } catch (error) {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
        return [];
      }
      throw error;
    }
    const entries = await Promise.all(
      Object.keys(subjects).map(async (subject) => {
        const stored = await lastStoredMessage(this.jsm, stream, subject);
        const parsed = scheduleIndexEntrySchema.safeParse(stored?.json());
        return parsed.success ? parsed.data : undefined;
      }),
    );
    return entries
      .filter((entry): entry is ScheduleIndexEntry => entry !== undefined)
      .filter((entry) => filter.sessionId === undefined || entry.sessionId === filter.sessionId)
      .filter((entry) => filter.status === undefined || entry.status === filter.status)
      .sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
  }

  async #command(
    scheduleId: string,
    type: string,
    payload: Record<string, unknown>,
    success: string,
    options: ScheduleCommandOptions,
  ): Promise<EventEnvelope> {
    const address = { kind: "schedule", id: scheduleId };
    formatAddress(address);
    const commandId = `cmd-${crypto.randomUUID()}`;
    const timeoutMs = options.timeoutMs ?? 10_000;
    const subscription = this.nats.subscribe(eventWildcard(address));
    try {
      const answer = (async () => {
        for await (const message of subscription) {
          let event: EventEnvelope;
          try {
            event = decodeEvent(message.data, {
              contentType: message.headers?.get("Content-Type") || undefined,
            });
          } catch {
            continue;
          }
          const about = event.payload as { commandId?: string; messageId?: string };
          if (event.type === "message.rejected" && about.messageId === commandId) return event;
          if (about.commandId === commandId) return event;
        }
        return undefined;
      })();
      const { bytes, contentType } = encodeMessage({
        v: 1,
        id: commandId,
        type,
        payload,
        meta: { timestampMs: Date.now() },
      });
      const messageHeaders = headers();
      messageHeaders.set("Content-Type", contentType);
      await this.js.publish(inboxSubject(address), bytes, {
        headers: messageHeaders,
        msgID: `schedule/${scheduleId}/${commandId}`,
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      const event = await Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
      if (event === "timeout" || event === undefined) {
        throw new VerdictTimeoutError(`schedule/${scheduleId}`, commandId, timeoutMs);
      }
      if (event.type === success) return event;
      const rejection = event.payload as { code?: string; message?: string; reason?: string };
      throw new ScheduleRejectedError({
        scheduleId,
        rejectionCode:
          event.type === "message.rejected"
            ? "invalid_command"
            : ((rejection.code ?? "invalid_command") as ScheduleRejectionCode),
        reason: rejection.message ?? rejection.reason ?? "refused",
      });
    } finally {
      subscription.unsubscribe();
    }
  }
}

function toUnixMs(at: Date | number | string, scheduleId: string): number {
  const ms = typeof at === "number" ? at : typeof at === "string" ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(ms) || ms < 0) {
    throw new ScheduleRejectedError({
      scheduleId,
      rejectionCode: "invalid_command",
      reason: `"at" must be a time: a Date, Unix ms or an ISO 8601 string, got ${String(at)}.`,
    });
  }
  return Math.round(ms);
}
