import { splitLastGrapheme } from "@troupe/protocol";

/** What a {@link DeltaBatcher} publishes: one piece of streamed text of one kind. */
export type DeltaKind = "text" | "reasoning";

/** Most characters one batched delta carries before it is published at once. */
export const MAX_BATCHED_DELTA_CHARS = 16_384;

/**
 * Joins the text deltas a model streams within one turn of the event loop into
 * one delta (docs/decisions/0016). A provider that sends a chunk every few milliseconds
 * still gets one delta per chunk; a fast stream (a busy host, a cached answer,
 * the scripted model) gets a few large ones instead of one NATS publish (and
 * one event for every client) per token. Text of another kind, a text over
 * {@link MAX_BATCHED_DELTA_CHARS} or {@link DeltaBatcher.flush} publishes what
 * is pending first, so the order of text and reasoning is kept.
 *
 * A delta holds whole user-perceived characters only (docs/decisions/0049): the last
 * grapheme cluster of the text so far is held back until more text of its kind
 * comes, the kind changes, or {@link DeltaBatcher.flush}, since a provider may
 * split a surrogate pair, a letter and its combining mark, or an emoji and its
 * skin tone across two chunks. Streamed text thus shows one character later.
 *
 * @example
 * ```ts
 * const batcher = new DeltaBatcher((kind, text) => publish({ kind, text, index: index++ }));
 * batcher.add("text", "Hel"); batcher.add("text", "lo"); // one delta "Hello", after this turn
 * batcher.flush(); // before the call's result is delivered
 * ```
 */
export class DeltaBatcher {
  /** Pending text in order, one segment per run of the same kind. */
  #pending: { kind: DeltaKind; parts: string[] }[] = [];
  #chars = 0;
  #scheduled: NodeJS.Immediate | undefined;
  #ready: boolean;
  #failed = false;
  /** Set by `drain`: the call's text is complete. */
  #ending = false;
  readonly #readyPromise: Promise<void>;

  /**
   * @param publish - called with each batched delta, in order; synchronous
   *   (a throw reaches the caller of `add`/`flush`, the pending text is dropped).
   * @param ready - publishing waits until it resolves (the model-call handler
   *   streams while the stream attempt its deltas carry is still being
   *   counted); text added meanwhile is published at once after it,
   *   joined. When it rejects, held and later text is dropped (the call fails).
   */
  constructor(
    private readonly publish: (kind: DeltaKind, text: string) => void,
    ready?: Promise<unknown>,
  ) {
    this.#ready = ready === undefined;
    this.#readyPromise = (ready ?? Promise.resolve()).then(
      () => {
        this.#ready = true;
        // Once the call is ending (`drain`), nothing more comes: publish all,
        // in one delta, rather than all but the last character and then it.
        this.#publishPending(!this.#ending);
      },
      () => {
        this.#failed = true;
        this.#pending = [];
        this.#chars = 0;
      },
    );
  }

  /**
   * Waits for `ready`, then publishes what is pending (nothing when `ready`
   * rejected). Call it before the call's result is delivered.
   */
  async drain(): Promise<void> {
    this.#ending = true;
    await this.#readyPromise;
    this.flush();
  }

  /** Queues `text` (empty text is ignored); publishes at the end of this event-loop turn. */
  add(kind: DeltaKind, text: string): void {
    if (text.length === 0 || this.#failed) return;
    const last = this.#pending.at(-1);
    if (last !== undefined && last.kind !== kind) this.flush();
    const open = this.#pending.at(-1);
    if (open !== undefined && open.kind === kind) open.parts.push(text);
    else this.#pending.push({ kind, parts: [text] });
    this.#chars += text.length;
    if (this.#chars >= MAX_BATCHED_DELTA_CHARS && this.#ready) {
      this.#publishPending(true);
      return;
    }
    this.#scheduled ??= setImmediate(() => {
      this.#scheduled = undefined;
      this.#publishPending(true);
    });
  }

  /** Publishes everything pending now (nothing when nothing is, or before `ready`). */
  flush(): void {
    this.#publishPending(false);
  }

  /** Publishes what is pending; `holdLast` keeps the last cluster of the last segment back. */
  #publishPending(holdLast: boolean): void {
    if (!this.#ready || this.#failed) return;
    if (this.#scheduled !== undefined) {
      clearImmediate(this.#scheduled);
      this.#scheduled = undefined;
    }
    const segments = this.#pending;
    this.#pending = [];
    this.#chars = 0;
    segments.forEach((segment, index) => {
      const text = segment.parts.join("");
      if (!holdLast || index < segments.length - 1) {
        this.publish(segment.kind, text);
        return;
      }
      const [complete, last] = splitLastGrapheme(text);
      if (last.length > 0) {
        this.#pending.push({ kind: segment.kind, parts: [last] });
        this.#chars = last.length;
      }
      if (complete.length > 0) this.publish(segment.kind, complete);
    });
  }
}
