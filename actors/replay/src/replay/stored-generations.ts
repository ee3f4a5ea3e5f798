import { decodeActorRecord, encodeActorRecord, type ActorRecord } from "@troupe/step/internal";
import type { StoredRecord } from "@troupe/stores/internal";
import { firstDifference, type Difference } from "./first-difference.js";
import { withoutTrace } from "./without-trace.js";

/** A difference between a replayed record and the stored generation of the same number. */
export type GenerationDifference = Difference & { readonly generation: number };

/**
 * The generations a snapshot store holds for one actor, ready to be compared
 * with replayed records — what `replayActor` and the history export both check
 * (docs/decisions/0021). Both sides are compared in stored form (a msgpack round
 * trip): the latest generation with its outbox while the store still holds it
 * (until confirmed), kept earlier generations without (the store keeps none).
 */
export class StoredGenerations {
  readonly #expected = new Map<number, { record: ActorRecord; withOutbox: boolean }>();
  readonly #latest: { record: ActorRecord; withOutbox: boolean } | undefined;
  readonly #compared = new Set<number>();

  /**
   * @param stored - the store's latest generation, if any.
   * @param kept - its earlier generations (`SnapshotStore.history`).
   */
  constructor(stored: StoredRecord | undefined, kept: readonly ActorRecord[]) {
    for (const record of kept) {
      this.#expected.set(record.generation, {
        record: storedForm(record, false),
        withOutbox: false,
      });
    }
    if (stored !== undefined) {
      const withOutbox = !stored.outboxConfirmed;
      this.#latest = { record: storedForm(stored.record, withOutbox), withOutbox };
      this.#expected.set(stored.record.generation, this.#latest);
    }
  }

  /** Generations compared equal so far. */
  get compared(): ReadonlySet<number> {
    return this.#compared;
  }

  /**
   * Compares a replayed record with the stored generation of its number, when
   * the store holds one.
   *
   * @param record - a record the step produced.
   * @returns the first difference, or undefined (equal, or nothing to compare).
   */
  check(record: ActorRecord): GenerationDifference | undefined {
    const want = this.#expected.get(record.generation);
    if (want === undefined) return undefined;
    const difference = firstDifference(want.record, storedForm(record, want.withOutbox));
    if (difference !== undefined) return { ...difference, generation: record.generation };
    this.#compared.add(record.generation);
    return undefined;
  }

  /**
   * Compares the record a replay ended with against the latest stored
   * generation: a replay that stopped short of it, or went past it, differs.
   *
   * @param last - the last record the replay produced, if any.
   * @returns the difference, or undefined when equal or nothing is stored.
   */
  checkLatest(last: ActorRecord | undefined): GenerationDifference | undefined {
    const latest = this.#latest;
    if (latest === undefined) return undefined;
    if (last?.generation === latest.record.generation) {
      return this.#compared.has(last.generation) ? undefined : this.check(last);
    }
    const replayed = last === undefined ? undefined : storedForm(last, latest.withOutbox);
    const difference = firstDifference(latest.record, replayed);
    return difference === undefined
      ? undefined
      : { ...difference, generation: latest.record.generation };
  }
}

/** The record as stored, without trace context (a replay has none). */
function storedForm(record: ActorRecord, withOutbox: boolean): ActorRecord {
  return decodeActorRecord(
    encodeActorRecord({
      ...record,
      effects: withoutTrace(record.effects),
      outbox: withOutbox ? withoutTrace(record.outbox) : [],
    }),
  );
}
