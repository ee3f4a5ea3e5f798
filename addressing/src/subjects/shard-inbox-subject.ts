import type { ActorAddress } from "../address/actor-address.js";
import { formatAddress } from "../address/format-address.js";
import { DecodeError } from "../errors/decode-error.js";
import { MAX_SHARD_COUNT, assertShard } from "./shard-number.js";
import { INTERNAL_SUBJECT_ROOT } from "./subject-token.js";

/**
 * The internal inbox subject of an actor, inside its shard. The inbox stream
 * stores these; the host that holds a shard's lease consumes its filter.
 *
 * Token layout: `_troupe.inbox.<shard>.<kind>.<id>` (5 tokens). The server's
 * subject mapping writes public inbox publishes here (see
 * `inboxSubjectMapping`); hosts may publish here directly when they already know
 * the shard (`shardOf`).
 *
 * @param shard - shard number, `shardOf(address, shardCount)`.
 * @param address - the receiving actor.
 * @returns e.g. `"_troupe.inbox.7.session.demo-1"`.
 * @throws RangeError when `shard` is not a whole number from 0.
 * @throws {@link InvalidAddressError} when the address breaks the address rules.
 */
export function shardInboxSubject(shard: number, address: ActorAddress): string {
  assertShard(shard);
  formatAddress(address);
  return `${INTERNAL_SUBJECT_ROOT}.inbox.${shard}.${address.kind}.${address.id}`;
}

/**
 * The consumer filter of one shard: `_troupe.inbox.<shard>.>`.
 *
 * @param shard - shard number.
 * @returns e.g. `"_troupe.inbox.7.>"`.
 * @throws RangeError when `shard` is not a whole number from 0.
 */
export function shardInboxFilter(shard: number): string {
  assertShard(shard);
  return `${INTERNAL_SUBJECT_ROOT}.inbox.${shard}.>`;
}

/** A shard inbox subject taken apart; `kind` and `id` are the raw tokens. */
export interface ShardInboxSubjectParts {
  readonly shard: number;
  readonly kind: string;
  readonly id: string;
}

const shardToken = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * Takes a shard inbox subject apart, without validating the kind and id against
 * the address rules: a host must be able to read the address of a message whose
 * id is not valid, to dead-letter it.
 *
 * @param subject - e.g. `"_troupe.inbox.7.session.demo-1"`.
 * @returns `{ shard, kind, id }` with the raw kind and id tokens.
 * @throws {@link DecodeError} (reason `undecodable`) when the layout is not
 *   `_troupe.inbox.<shard>.<kind>.<id>` with a decimal shard number.
 */
export function parseShardInboxSubject(subject: string): ShardInboxSubjectParts {
  const tokens = String(subject).split(".");
  const [root, inbox, shardText, kind, id] = tokens;
  const shard = Number(shardText);
  if (
    tokens.length !== 5 ||
    root !== INTERNAL_SUBJECT_ROOT ||
    inbox !== "inbox" ||
    shardText === undefined ||
    !shardToken.test(shardText) ||
    shard >= MAX_SHARD_COUNT ||
    kind === undefined ||
    kind.length === 0 ||
    id === undefined ||
    id.length === 0
  ) {
    throw new DecodeError(
      `Not a shard inbox subject: ${JSON.stringify(String(subject))}; ` +
        `expected ${INTERNAL_SUBJECT_ROOT}.inbox.<shard>.<kind>.<id>.`,
      { reason: "undecodable", subject },
    );
  }
  return { shard, kind, id };
}
