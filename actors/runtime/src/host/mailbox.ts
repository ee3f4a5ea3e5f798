import type { JsMsg } from "@nats-io/jetstream";

/**
 * An actor's queue of delivered inbox messages, in delivery order (inbox order
 * per actor, as one shard consumer delivers them).
 *
 * A redelivery (JetStream redelivers an un-acked message after AckWait) of a
 * message that is still waiting and not in hand replaces the queued copy: the
 * acknowledgement then goes to the latest delivery, and a mailbox held back by a
 * version refusal (docs/decisions/0022) does not grow by one copy per AckWait. A
 * redelivery of the message in hand is queued behind it (the step then skips it
 * as already reflected).
 */
export class Mailbox {
  readonly #queue: JsMsg[] = [];
  /** How many copies of each inbox sequence are queued. */
  readonly #copies = new Map<number, number>();
  /** Inbox sequence of the message being processed. */
  #inHand: number | undefined;

  /** Messages queued (the one in hand included). */
  get length(): number {
    return this.#queue.length;
  }

  /** The oldest queued message (the next to process, or the one in hand). */
  get head(): JsMsg | undefined {
    return this.#queue[0];
  }

  /**
   * Queues a delivery.
   *
   * @param message - a delivery from the shard consumer.
   * @returns false when it replaced a queued copy of the same message.
   */
  push(message: JsMsg): boolean {
    if (this.#copies.has(message.seq) && this.#inHand !== message.seq) {
      const index = this.#queue.findIndex((queued) => queued.seq === message.seq);
      if (index >= 0) {
        this.#queue[index] = message;
        return false;
      }
    }
    this.#queue.push(message);
    this.#copies.set(message.seq, (this.#copies.get(message.seq) ?? 0) + 1);
    return true;
  }

  /** Drops the head (processed). */
  shift(): void {
    const message = this.#queue.shift();
    if (message === undefined) return;
    const copies = (this.#copies.get(message.seq) ?? 1) - 1;
    if (copies > 0) this.#copies.set(message.seq, copies);
    else this.#copies.delete(message.seq);
  }

  /**
   * Runs `task` with `message` marked in hand (a redelivery meanwhile is queued
   * behind it rather than replacing it).
   */
  async inHand<T>(message: JsMsg, task: () => Promise<T>): Promise<T> {
    this.#inHand = message.seq;
    try {
      return await task();
    } finally {
      this.#inHand = undefined;
    }
  }
}
