import type { SessionEvent } from "./session-event.js";

/** How many event ids {@link EventDeduplicator} remembers by default. */
export const DEFAULT_REMEMBERED_EVENT_IDS = 10_000;

/**
 * Decides which stream messages `events()` yields, so that the caller sees no
 * duplicate and nothing out of order, whatever the consumer underneath does
 * (recreated after a reconnect, re-delivering from an older sequence).
 *
 * Two rules:
 * 1. a message whose stream sequence is not above the last one admitted is
 *    dropped (a consumer recreated from an older position re-delivers);
 * 2. a non-transient event whose envelope id was admitted before is dropped
 *    (a host re-publishes events after a failover; outside JetStream's dedup
 *    window the stream stores the copy at a new sequence). Ids are remembered in
 *    admission order, the oldest forgotten past `rememberedIds`. Transient events
 *    (`run.delta`, `meta.transient: true`) are never dropped by id: their
 *    attempt/index fields tell repeats apart.
 *
 * Memory: O(`rememberedIds`).
 */
export class EventDeduplicator {
  private lastSequence: number;
  private readonly ids = new Set<string>();
  private readonly rememberedIds: number;

  /**
   * @param options - `afterSequence`: admit only sequences above it (default 0);
   *   `rememberedIds`: how many ids to remember (default 10 000, at least 1).
   */
  constructor(options: { afterSequence?: number; rememberedIds?: number } = {}) {
    this.lastSequence = options.afterSequence ?? 0;
    this.rememberedIds = Math.max(1, options.rememberedIds ?? DEFAULT_REMEMBERED_EVENT_IDS);
  }

  /** The stream sequence to read from next: one above the last admitted. */
  get nextSequence(): number {
    return this.lastSequence + 1;
  }

  /**
   * Moves past a stream message that will not be yielded (e.g. undecodable), so
   * a recreated consumer does not read it again.
   *
   * @param sequence - its stream sequence.
   */
  skip(sequence: number): void {
    if (sequence > this.lastSequence) this.lastSequence = sequence;
  }

  /**
   * Whether to yield `event`; records it when so.
   *
   * @param event - a decoded stream message.
   * @returns `true` for a new event, `false` for a repeat (by sequence or id).
   */
  admit(event: SessionEvent): boolean {
    if (event.sequence <= this.lastSequence) return false;
    this.lastSequence = event.sequence;
    if (event.event.meta.transient === true) return true;
    const id = event.event.id;
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.rememberedIds) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }
}
