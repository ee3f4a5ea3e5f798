import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import {
  SCHEDULE_INDEX_STREAM_SUBJECTS,
  scheduleIndexEntrySchema,
  scheduleIndexStreamName,
  scheduleIndexSubject,
  lastStoredMessage,
  type ScheduleIndexEntry,
} from "@troupe/protocol";

/** How many times a write retries after another host wrote the same schedule's entry first. */
const MAX_WRITE_ATTEMPTS = 8;

/**
 * The schedule listing in JetStream (docs/decisions/0044): stream
 * `<P>_SCHEDULES`, one message per schedule on `_troupe.schedule.<scheduleId>`
 * (`max_msgs_per_subject` 1, kept until the schedule is overwritten — no age
 * limit), holding the newest {@link ScheduleIndexEntry}.
 *
 * The `schedule.index` effect that writes it is at-least-once, and after a
 * crash older requests may run again after newer ones, so a write is a
 * compare-and-set: it reads the stored entry and publishes with
 * `expect.lastSubjectSequence` only when its `revision` is newer; an older or
 * equal one is dropped. The stream takes the replicas and placement of the
 * deployment's events stream when it is created.
 */
export class JetStreamScheduleIndex {
  readonly stream: string;
  #ensured: Promise<void> | undefined;

  /**
   * @param js - JetStream client.
   * @param jsm - JetStream manager.
   * @param prefix - the deployment prefix (`troupe`).
   * @param eventsStream - the deployment's events stream, whose replicas and placement are copied.
   */
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    prefix: string,
    private readonly eventsStream: string,
  ) {
    this.stream = scheduleIndexStreamName(prefix);
  }

  /**
   * Records an entry unless a newer revision of the same schedule is stored.
   *
   * @param entry - the schedule's state.
   * @returns `written`, or `stale` when a newer or equal revision was stored.
   * @throws the JetStream error when the stream cannot be created or written.
   */
  async put(entry: ScheduleIndexEntry): Promise<"written" | "stale"> {
    await this.ensure();
    const subject = scheduleIndexSubject(entry.scheduleId);
    for (let attempt = 1; ; attempt += 1) {
      const stored = await lastStoredMessage(this.jsm, this.stream, subject);
      if (stored !== null) {
        const parsed = scheduleIndexEntrySchema.safeParse(stored.json());
        if (parsed.success && parsed.data.revision >= entry.revision) return "stale";
      }
      try {
        await this.js.publish(subject, JSON.stringify(entry), {
          expect: { lastSubjectSequence: stored?.seq ?? 0 },
        });
        return "written";
      } catch (error) {
        const lost =
          error instanceof JetStreamApiError &&
          error.code === JetStreamApiCodes.StreamWrongLastSequence;
        if (!lost || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      }
    }
  }

  /** Creates the stream when missing (once per instance; a lost race counts as found). */
  ensure(): Promise<void> {
    this.#ensured ??= this.#create().catch((error: unknown) => {
      this.#ensured = undefined;
      throw error;
    });
    return this.#ensured;
  }

  async #create(): Promise<void> {
    if (await this.#exists()) return;
    const events = await this.jsm.streams.info(this.eventsStream);
    try {
      await this.jsm.streams.add({
        name: this.stream,
        subjects: [...SCHEDULE_INDEX_STREAM_SUBJECTS],
        max_msgs_per_subject: 1,
        num_replicas: events.config.num_replicas,
        ...(events.config.placement === undefined ? {} : { placement: events.config.placement }),
      });
    } catch (error) {
      if (!(await this.#exists())) throw error;
    }
  }

  async #exists(): Promise<boolean> {
    try {
      await this.jsm.streams.info(this.stream);
      return true;
    } catch (error) {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
        return false;
      }
      throw error;
    }
  }
}
