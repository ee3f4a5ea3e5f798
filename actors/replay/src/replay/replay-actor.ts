import { type ActorAddress, formatAddress } from "@troupe/protocol";
import {
  type UnknownMachineVersionError,
  type ActorKindDefinition,
  assertSupportedMachine,
  type ActorRecord,
  processMessage,
} from "@troupe/step/internal";
import type { SnapshotStore } from "@troupe/stores/internal";
import type { Difference } from "./first-difference.js";
import { readJournal, type JournalSource } from "./journal-reader.js";
import { StoredGenerations } from "./stored-generations.js";

/** What {@link replayActor} found. */
export interface ReplayReport {
  readonly actor: string;
  /** True when the replayed snapshot equals the stored one. */
  readonly reproduces: boolean;
  /** Journal messages read. */
  readonly messagesRead: number;
  readonly storedGeneration: number | undefined;
  readonly replayedGeneration: number | undefined;
  /**
   * The first difference: at the oldest kept generation that differs (generation
   * number given), else at the latest.
   */
  readonly divergence: (Difference & { readonly generation: number }) | undefined;
  /**
   * Set when the stored snapshot was written by another machine version than
   * the kind given runs (docs/decisions/0022): `{ storedVersion, replayVersion }`. The
   * replay then cannot reproduce it byte for byte (`machineVersion` differs at
   * least); read the divergence with that in mind.
   */
  readonly versionMismatch:
    { readonly storedVersion: string; readonly replayVersion: string } | undefined;
  /**
   * Set when the step refused a message (a snapshot of a machine version the
   * kind cannot read): the replay stopped there, at inbox sequence
   * `seq`; `reproduces` is false.
   */
  readonly refusal:
    { readonly seq: number; readonly error: UnknownMachineVersionError } | undefined;
}

/**
 * Re-runs an actor's journal through the pure step and reports whether it
 * reproduces the stored snapshot (docs/design.md, "Replay machine state in tests").
 *
 * The step sees only the journal and the kind: replay with the settings the
 * hosts ran (`maxPayloadBytes`) and the same kind definitions.
 *
 * @param source - journal location plus the snapshot store, the actor's kind
 *   and the hosts' `maxPayloadBytes`.
 * @param address - the actor.
 * @returns the report; `reproduces` is false with a `divergence` when they differ
 *   (also when the journal no longer holds early messages, past retention).
 * @throws UnsupportedMachineActionError when the kind's machine uses an action or
 *   `invoke` the host cannot carry out (checked before anything is read).
 */
export async function replayActor(
  source: JournalSource & {
    readonly snapshots: SnapshotStore;
    readonly definition: ActorKindDefinition;
    /**
     * The hosts' `maxPayloadBytes` setting (default: the protocol's 1 MiB): the
     * same limit must refuse the same messages on replay as it did live.
     */
    readonly maxPayloadBytes?: number;
  },
  address: ActorAddress,
): Promise<ReplayReport> {
  assertSupportedMachine(source.definition);
  const actor = formatAddress(address);
  const stored = await source.snapshots.load(actor);
  const history = stored === undefined ? [] : await source.snapshots.history(actor);
  const generations = new StoredGenerations(stored, history);
  let record: ActorRecord | undefined;
  let messagesRead = 0;
  let divergence: ReplayReport["divergence"];
  let refusal: ReplayReport["refusal"];
  for await (const message of readJournal(source, address, stored?.record.inboxSeq ?? 0)) {
    messagesRead += 1;
    const result = processMessage(record, message, {
      definition: source.definition,
      address,
      ...(source.maxPayloadBytes === undefined ? {} : { maxPayloadBytes: source.maxPayloadBytes }),
    });
    if (result.outcome === "refused") {
      // Every later message would be refused too: report where it stopped.
      refusal = { seq: message.seq, error: result.error };
      break;
    }
    if (result.outcome !== "committed") continue;
    record = result.record;
    divergence ??= generations.check(record);
  }
  divergence ??= generations.checkLatest(record);
  const storedVersion = stored?.record.machineVersion;
  return {
    actor,
    reproduces: divergence === undefined && refusal === undefined,
    messagesRead,
    storedGeneration: stored?.record.generation,
    replayedGeneration: record?.generation,
    divergence,
    versionMismatch:
      storedVersion === undefined || storedVersion === source.definition.version
        ? undefined
        : { storedVersion, replayVersion: source.definition.version },
    refusal,
  };
}
