import type { HistoryActor } from "@troupe/protocol";
import { HistoryNotReproducibleError, type ActorRecord } from "@troupe/step";
import type { StoredRecord } from "@troupe/stores/internal";
import type { RecordedStep } from "./record-actor-history.js";
import { StoredGenerations } from "./stored-generations.js";

/**
 * Compares an actor's replayed records with what the snapshot store holds and
 * marks the generations found equal with `stored: true` (docs/decisions/0021). Both sides
 * are compared in stored form (a msgpack round trip), as `replayActor` does;
 * the latest stored generation with its outbox while the store still holds it
 * (until confirmed), kept earlier generations without (the store keeps none).
 *
 * @param recorded - from `recordActorHistory`: the history actor and its steps.
 * @param stored - the store's latest generation.
 * @param kept - the store's earlier generations (`SnapshotStore.history`).
 * @returns the actor with `stored: true` on every compared generation.
 * @throws HistoryNotReproducibleError (reason `journal_incomplete`) when the
 *   replay did not reach the stored generation (the journal lost early messages
 *   to retention), or (`diverged`) at the oldest compared generation that
 *   differs, with the path, the stored and the replayed value.
 */
export function verifyRecordedActor(
  recorded: { readonly actor: HistoryActor; readonly steps: readonly RecordedStep[] },
  stored: StoredRecord,
  kept: readonly ActorRecord[],
): HistoryActor {
  const { actor, steps } = recorded;
  const latest = stored.record.generation;
  const reached = steps.at(-1)?.record.generation;
  if (reached !== latest) {
    throw new HistoryNotReproducibleError(
      actor.address,
      latest,
      "/generation",
      latest,
      reached ?? 0,
      "journal_incomplete",
    );
  }
  const generations = new StoredGenerations(stored, kept);
  for (const { record } of steps) {
    const difference = generations.check(record);
    if (difference !== undefined) {
      throw new HistoryNotReproducibleError(
        actor.address,
        difference.generation,
        difference.path,
        difference.expected,
        difference.actual,
        "diverged",
      );
    }
  }
  return {
    ...actor,
    generations: actor.generations.map((generation) =>
      generations.compared.has(generation.generation)
        ? { ...generation, stored: true }
        : generation,
    ),
  };
}
