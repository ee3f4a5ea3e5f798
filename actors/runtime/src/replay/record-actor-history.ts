import {
  type ActorAddress,
  type HistoryActor,
  type HistoryGeneration,
  type HistoryJournalEntry,
  codecForContentType,
  formatAddress,
  sniffCodec,
  toHistoryJson,
} from "@troupe/protocol";
import { unpack } from "msgpackr";
import { HistoryNotReproducibleError } from "../errors/history-not-reproducible-error.js";
import type { ActorKindDefinition } from "../registry/actor-kind.js";
import { decodeActorRecord, encodeActorRecord, type ActorRecord } from "../step/actor-record.js";
import { processMessage, type InboxMessage, type LiveState } from "../step/process-message.js";
import type { StoredRecord } from "../stores/snapshot-store.js";
import { firstDifference } from "./first-difference.js";

/** What {@link recordActorHistory} replayed: the history part and the records behind it. */
export interface RecordedActor {
  /** The actor as a history holds it (`stored` not yet set on any generation). */
  readonly actor: HistoryActor;
  /** Every committed record, oldest first, in stored form (msgpack round trip). */
  readonly records: readonly ActorRecord[];
}

/**
 * Runs an actor's journal through the pure step (as the host did) and records
 * every committed generation as a history generation (issue #14): the state,
 * pending effects and timers in their JSON form (`toHistoryJson`), the outbox as
 * `{ subject, messageId }`, and the machine version. Every message becomes a
 * journal entry with its stored bytes (base64) and, best effort, its type.
 * Pure: no IO.
 *
 * @param messages - the journal, oldest first.
 * @param definition - the actor's kind (the one the hosts ran).
 * @param address - the actor.
 * @param maxPayloadBytes - the hosts' limit (default: the protocol's 1 MiB).
 * @returns the history actor and the replayed records.
 */
export function recordActorHistory(
  messages: readonly InboxMessage[],
  definition: ActorKindDefinition,
  address: ActorAddress,
  maxPayloadBytes?: number,
): RecordedActor {
  const records: ActorRecord[] = [];
  let record: ActorRecord | undefined;
  let live: LiveState | undefined;
  for (const message of messages) {
    const result = processMessage(record, message, {
      definition,
      address,
      live,
      ...(maxPayloadBytes === undefined ? {} : { maxPayloadBytes }),
    });
    if (result.outcome !== "committed") continue;
    record = result.record;
    live = result.live;
    records.push(storedForm(result.record));
  }
  return {
    actor: {
      address: formatAddress(address),
      machineVersion: record?.machineVersion ?? definition.version,
      journal: messages.map(toJournalEntry),
      generations: records.map(toHistoryGeneration),
    },
    records,
  };
}

/**
 * Compares the replayed records with what the snapshot store holds and marks
 * the generations found equal with `stored: true` (issue #14). The latest stored
 * generation is compared with its outbox while the store still holds it (until
 * confirmed); kept earlier generations without (the store keeps none).
 *
 * @param recorded - from {@link recordActorHistory}.
 * @param stored - the store's latest generation.
 * @param kept - the store's earlier generations (`SnapshotStore.history`).
 * @returns the actor with `stored: true` on every compared generation.
 * @throws HistoryNotReproducibleError (reason `journal_incomplete`) when the
 *   replay did not reach the stored generation, or (`diverged`) at the oldest
 *   compared generation that differs, with the path.
 */
export function verifyRecordedActor(
  recorded: RecordedActor,
  stored: StoredRecord,
  kept: readonly ActorRecord[],
): HistoryActor {
  const { actor, records } = recorded;
  const latest = storedForm(stored.record);
  const reached = records.at(-1)?.generation;
  if (reached !== latest.generation) {
    throw new HistoryNotReproducibleError(
      actor.address,
      latest.generation,
      "/generation",
      latest.generation,
      reached ?? 0,
      "journal_incomplete",
    );
  }
  const expected = new Map<number, { record: ActorRecord; withOutbox: boolean }>();
  for (const record of kept) {
    expected.set(record.generation, { record: storedForm(record), withOutbox: false });
  }
  expected.set(latest.generation, { record: latest, withOutbox: !stored.outboxConfirmed });
  const compared = new Set<number>();
  for (const record of records) {
    const want = expected.get(record.generation);
    if (want === undefined) continue;
    const got = want.withOutbox ? record : storedForm({ ...record, outbox: [] });
    const wanted = want.withOutbox ? want.record : { ...want.record, outbox: [] };
    const difference = firstDifference(wanted, got);
    if (difference !== undefined) {
      throw new HistoryNotReproducibleError(
        actor.address,
        record.generation,
        difference.path,
        difference.expected,
        difference.actual,
        "diverged",
      );
    }
    compared.add(record.generation);
  }
  return {
    ...actor,
    generations: actor.generations.map((generation) =>
      compared.has(generation.generation) ? { ...generation, stored: true } : generation,
    ),
  };
}

/**
 * One record as a history generation.
 *
 * @param record - a committed record (stored form).
 * @returns `{ generation, inboxSeq, machineVersion, state, eventSeq, effects, timers, outbox }`.
 */
export function toHistoryGeneration(record: ActorRecord): HistoryGeneration {
  return {
    generation: record.generation,
    inboxSeq: record.inboxSeq,
    machineVersion: record.machineVersion,
    state: toHistoryJson(record.state),
    eventSeq: record.eventSeq,
    effects: record.effects.map((effect) => toHistoryJson(effect)),
    timers: record.timers.map((timer) => toHistoryJson(timer)),
    outbox: record.outbox.map(({ subject, messageId }) => ({ subject, messageId })),
  };
}

/**
 * One journal message as a history entry: the stored bytes in base64 and, when
 * the body decodes (msgpack or JSON) to an object with a string `type`, that type.
 *
 * @param message - an inbox message.
 */
export function toJournalEntry(message: InboxMessage): HistoryJournalEntry {
  const type = messageTypeOf(message);
  return {
    seq: message.seq,
    subject: message.subject,
    ...(message.contentType === undefined ? {} : { contentType: message.contentType }),
    timestampMs: message.timestampMs,
    data: Buffer.from(message.data).toString("base64"),
    ...(type === undefined ? {} : { type }),
  };
}

function messageTypeOf(message: InboxMessage): string | undefined {
  try {
    if (message.data.byteLength === 0) return undefined;
    const codec =
      (message.contentType === undefined ? undefined : codecForContentType(message.contentType)) ??
      sniffCodec(message.data);
    const body: unknown =
      codec === "json"
        ? JSON.parse(new TextDecoder().decode(message.data))
        : unpack(Buffer.from(message.data));
    const type = (body as { type?: unknown } | null)?.type;
    return typeof type === "string" && type !== "" ? type : undefined;
  } catch {
    return undefined;
  }
}

/** A record as the store gives it back (msgpack round trip), so both sides compare alike. */
function storedForm(record: ActorRecord): ActorRecord {
  return decodeActorRecord(encodeActorRecord(record));
}
