import { assertShardCount } from "./shard-number.js";
import { INTERNAL_SUBJECT_ROOT, PUBLIC_SUBJECT_ROOT } from "./subject-token.js";

/** One entry of the nats-server `mappings` block: `source: destination`. */
export interface SubjectMapping {
  readonly source: string;
  readonly destination: string;
}

/**
 * The server-side subject mapping that routes public inbox publishes to shard
 * inbox subjects, so a plain `nats pub troupe.session.demo-1.in …` lands in the
 * right shard without any client-side logic.
 *
 * `troupe.*.*.in` → `_troupe.inbox.{{partition(N,1,2)}}.{{wildcard(1)}}.{{wildcard(2)}}`.
 * `partition(N,1,2)` hashes the kind and id tokens exactly as `shardOf` does
 * (mapping functions need nats-server 2.9 or later,
 * https://docs.nats.io/nats-concepts/subject_mapping).
 *
 * @param shardCount - number of shards, fixed per deployment; hosts check it at start.
 * @returns `{ source, destination }` for `mappings { "<source>": "<destination>" }`.
 * @throws RangeError when `shardCount` is not a whole number from 1.
 *
 * @example
 * ```ts
 * const { source, destination } = inboxSubjectMapping(64);
 * const config = `mappings {\n  "${source}": "${destination}"\n}`;
 * ```
 */
export function inboxSubjectMapping(shardCount: number): SubjectMapping {
  assertShardCount(shardCount);
  return {
    source: `${PUBLIC_SUBJECT_ROOT}.*.*.in`,
    destination:
      `${INTERNAL_SUBJECT_ROOT}.inbox.{{partition(${shardCount},1,2)}}` +
      `.{{wildcard(1)}}.{{wildcard(2)}}`,
  };
}
