import type { JsMsg } from "@nats-io/jetstream";
import { describe, expect, it } from "vitest";
import { Mailbox } from "./mailbox.js";

/** A delivery: only `seq` and which delivery it is matter to the mailbox. */
function delivery(seq: number, deliveryCount = 1): JsMsg {
  return { seq, info: { deliveryCount } } as unknown as JsMsg;
}

const counts = (mailbox: Mailbox, length: number) =>
  Array.from({ length }, () => {
    const head = mailbox.head!;
    mailbox.shift();
    return [head.seq, head.info.deliveryCount];
  });

describe("Mailbox", () => {
  it("a redelivery of a waiting message replaces it: a mailbox held by a refusal does not grow (issue #14)", () => {
    const mailbox = new Mailbox();
    expect(mailbox.push(delivery(5))).toBe(true);
    expect(mailbox.push(delivery(6))).toBe(true);
    // JetStream redelivers both after AckWait, several times.
    for (const count of [2, 3, 4]) {
      expect(mailbox.push(delivery(5, count))).toBe(false);
      expect(mailbox.push(delivery(6, count))).toBe(false);
    }
    expect(mailbox.length).toBe(2);
    // In order, each the latest delivery (the one whose ack counts).
    expect(counts(mailbox, 2)).toEqual([
      [5, 4],
      [6, 4],
    ]);
    expect(mailbox.head).toBeUndefined();
  });

  it("a redelivery of the message in hand is queued behind it (the step skips it later)", async () => {
    const mailbox = new Mailbox();
    mailbox.push(delivery(5));
    await mailbox.inHand(mailbox.head!, () => {
      expect(mailbox.push(delivery(5, 2))).toBe(true);
      return Promise.resolve();
    });
    expect(counts(mailbox, 2)).toEqual([
      [5, 1],
      [5, 2],
    ]);
    // Once processed, a new delivery of the same sequence is queued again.
    expect(mailbox.push(delivery(5, 3))).toBe(true);
    expect(mailbox.length).toBe(1);
  });
});
