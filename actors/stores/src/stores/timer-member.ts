import type { PendingTimer } from "@troupe/step";
import type { DueTimer } from "./snapshot-store.js";

/**
 * Member of a durable timer in its shard's timer set (scored by the deadline):
 * `<deadlineMs>|<actor address>|<timerId>`. Every snapshot store names timers
 * this way, so equal deadlines fall due in the same (member) order everywhere.
 *
 * @param address - the actor, `kind/id`.
 * @param timer - its timer id and deadline (Unix ms).
 * @returns the member string.
 */
export function timerMember(
  address: string,
  timer: Pick<PendingTimer, "timerId" | "deadlineMs">,
): string {
  return `${timer.deadlineMs}|${address}|${timer.timerId}`;
}

/**
 * Reads a member written by {@link timerMember} (addresses hold no `|`; a timer
 * id may).
 *
 * @param shard - the shard whose timer set held it.
 * @param member - `<deadlineMs>|<actor address>|<timerId>`.
 * @returns the due timer.
 */
export function parseTimerMember(shard: number, member: string): DueTimer {
  const first = member.indexOf("|");
  const second = member.indexOf("|", first + 1);
  return {
    shard,
    address: member.slice(first + 1, second),
    timer: { deadlineMs: Number(member.slice(0, first)), timerId: member.slice(second + 1) },
  };
}

/**
 * The timer-set changes of one commit: members of `previous` missing from `next`
 * are removed, members new in `next` are added (a timer is identified by its id
 * and deadline, so re-arming with a new deadline replaces it).
 *
 * @param previous - the generation the commit replaces (undefined for a new actor).
 * @param next - the generation it writes.
 * @returns members to remove, and members to add with their score (the deadline, Unix ms).
 */
export function timerChanges(
  previous: { readonly timers: readonly PendingTimer[] } | undefined,
  next: { readonly address: string; readonly timers: readonly PendingTimer[] },
): { removed: string[]; added: { member: string; deadlineMs: number }[] } {
  const key = (timer: PendingTimer) => `${timer.deadlineMs}|${timer.timerId}`;
  const before = new Map((previous?.timers ?? []).map((timer) => [key(timer), timer]));
  const after = new Map(next.timers.map((timer) => [key(timer), timer]));
  return {
    removed: [...before.entries()]
      .filter(([id]) => !after.has(id))
      .map(([, timer]) => timerMember(next.address, timer)),
    added: [...after.entries()]
      .filter(([id]) => !before.has(id))
      .map(([, timer]) => ({
        member: timerMember(next.address, timer),
        deadlineMs: timer.deadlineMs,
      })),
  };
}
