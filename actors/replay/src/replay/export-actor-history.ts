import {
  type ActorAddress,
  type HistoryActor,
  type HistoryAgent,
  type TroupeHistory,
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  InvalidAddressError,
  formatAddress,
} from "@troupe/protocol";
import {
  ActorNotFoundError,
  type ActorKindDefinition,
  assertSupportedMachine,
  type InboxMessage,
} from "@troupe/step";
import type { SnapshotStore } from "@troupe/stores/internal";
import { readJournal, type JournalSource } from "./journal-reader.js";
import { outboxTargets } from "./outbox-targets.js";
import { recordActorHistory } from "./record-actor-history.js";
import { verifyRecordedActor } from "./verify-recorded-actor.js";

/** Where {@link exportActorHistory} reads, and what it writes into the document. */
export interface HistoryExportSource extends JournalSource {
  readonly snapshots: SnapshotStore;
  /** The kinds the hosts serve, by kind (the same definitions, so the step is the same). */
  readonly kinds: ReadonlyMap<string, ActorKindDefinition>;
  /** The hosts' `maxPayloadBytes` (default: the protocol's 1 MiB). */
  readonly maxPayloadBytes?: number;
  /** Who exported it: the Troupe release and the agents served (`producer` of the document). */
  readonly producer?: { readonly troupe?: string; readonly agents?: readonly HistoryAgent[] };
  /** The time, Unix ms, for `exportedAtMs`; default `Date.now`. */
  readonly nowMs?: () => number;
}

/** Options of {@link exportActorHistory}. */
export interface HistoryExportOptions {
  /**
   * Also export every actor a replayed generation sent a message to, and theirs
   * (breadth first: for a session, its run actor, its tool calls, subagent
   * sessions and their runs and tools). Default false.
   */
  readonly tree?: boolean;
}

/**
 * Exports an actor's recorded history (docs/decisions/0021): its journal, re-run through
 * the pure step, and every generation that produced — a self-contained
 * document `replayHistory` can replay offline. Only a history that reproduces
 * is written: the latest stored generation (and every earlier one the store
 * keeps) must equal the replayed one, and is marked `stored: true`.
 *
 * With `tree: true`, the actors the root's outbox reached are followed breadth
 * first, in order of first appearance (root first), as long as their kind is
 * in `source.kinds`; an actor reached that has no stored snapshot (a message
 * that created nothing) is left out.
 *
 * Read-only: nothing is written to Redis or NATS.
 *
 * @param source - JetStream clients and stream names, the snapshot store, the
 *   kinds, and optionally `maxPayloadBytes`, `producer`, `nowMs`.
 * @param root - the actor to start from.
 * @param options - `tree` (default false).
 * @returns the history (format version {@link HISTORY_FORMAT_VERSION}).
 * @throws InvalidAddressError (field `kind`) when `root`'s kind is not in `kinds`.
 * @throws ActorNotFoundError when the root has no stored snapshot.
 * @throws HistoryNotReproducibleError when an actor's journal does not
 *   reproduce its stored generations (names the actor, generation and path).
 * @throws UnsupportedMachineActionError when a kind's machine cannot be hosted.
 * @example
 * const history = await exportActorHistory(
 *   { js, jsm, streams, shardCount: 64, snapshots, kinds },
 *   { kind: "session", id: "demo-1" },
 *   { tree: true },
 * );
 * await writeFile("conversation.json", formatHistory(history, "json"));
 */
export async function exportActorHistory(
  source: HistoryExportSource,
  root: ActorAddress,
  options: HistoryExportOptions = {},
): Promise<TroupeHistory> {
  const tree = options.tree ?? false;
  const rootText = formatAddress(root);
  if (!source.kinds.has(root.kind)) {
    throw new InvalidAddressError(
      `no actor kind "${root.kind}" among the kinds given (known: ${[...source.kinds.keys()].join(", ")})`,
      "kind",
      root.kind,
    );
  }
  for (const definition of source.kinds.values()) assertSupportedMachine(definition);
  const actors: HistoryActor[] = [];
  const queue: ActorAddress[] = [root];
  const visited = new Set<string>([rootText]);
  while (queue.length > 0) {
    const address = queue.shift()!;
    const actor = await exportOne(source, address, address === root);
    if (actor === undefined) continue;
    actors.push(actor);
    if (!tree) continue;
    for (const target of outboxTargets(actor.generations, source.kinds)) {
      if (visited.has(target.text)) continue;
      visited.add(target.text);
      queue.push(target.address);
    }
  }
  const producer = source.producer;
  return {
    format: HISTORY_FORMAT,
    formatVersion: HISTORY_FORMAT_VERSION,
    exportedAtMs: Math.floor((source.nowMs ?? Date.now)()),
    root: rootText,
    tree,
    ...(producer === undefined
      ? {}
      : {
          producer: {
            ...(producer.troupe === undefined ? {} : { troupe: producer.troupe }),
            ...(producer.agents === undefined ? {} : { agents: [...producer.agents] }),
          },
        }),
    actors,
  };
}

async function exportOne(
  source: HistoryExportSource,
  address: ActorAddress,
  isRoot: boolean,
): Promise<HistoryActor | undefined> {
  const text = formatAddress(address);
  const definition = source.kinds.get(address.kind)!;
  const stored = await source.snapshots.load(text);
  if (stored === undefined) {
    if (!isRoot) return undefined;
    let journalMessages = 0;
    for await (const _message of readJournal(source, address)) journalMessages += 1;
    throw new ActorNotFoundError(text, journalMessages);
  }
  const kept = await source.snapshots.history(text);
  const messages: InboxMessage[] = [];
  for await (const message of readJournal(source, address, stored.record.inboxSeq)) {
    messages.push(message);
  }
  const recorded = recordActorHistory(
    definition,
    address,
    messages,
    source.maxPayloadBytes === undefined ? {} : { maxPayloadBytes: source.maxPayloadBytes },
  );
  return verifyRecordedActor(recorded, stored, kept);
}
