import {
  formatAddress,
  toHistoryJson,
  type ActorAddress,
  type HistoryActor,
  type HistoryGeneration,
  type HistoryJournalEntry,
} from "@troupe/protocol";
import { decodeBody } from "@troupe/protocol/internal";
import {
  type ActorKindDefinition,
  type ActorRecord,
  processMessage,
  type InboxMessage,
} from "@troupe/step/internal";

/** One committed step of {@link recordActorHistory}: the generation and the record it came from. */
export interface RecordedStep {
  readonly generation: HistoryGeneration;
  /** The record exactly as the step produced it (compare it with a stored one). */
  readonly record: ActorRecord;
}

/**
 * Runs an actor's journal through the pure step and records it as a history
 * actor: every journaled message (bytes as stored, base64) and every generation
 * it commits (docs/decisions/0020). Pure: the same journal and kind give the same result.
 *
 * @param definition - the actor's kind, as the hosts run it.
 * @param address - the actor.
 * @param journal - its inbox messages, oldest first.
 * @param options - the hosts' `maxPayloadBytes` (default: the protocol's 1 MiB).
 * @returns the history actor, and each committed step's record (for checks
 *   against a snapshot store).
 */
export function recordActorHistory(
  definition: ActorKindDefinition,
  address: ActorAddress,
  journal: Iterable<InboxMessage>,
  options: { readonly maxPayloadBytes?: number } = {},
): { readonly actor: HistoryActor; readonly steps: readonly RecordedStep[] } {
  const entries: HistoryJournalEntry[] = [];
  const steps: RecordedStep[] = [];
  let record: ActorRecord | undefined;
  let live: Parameters<typeof processMessage>[2]["live"];
  for (const message of journal) {
    const result = processMessage(record, message, {
      definition,
      address,
      live,
      ...(options.maxPayloadBytes === undefined
        ? {}
        : { maxPayloadBytes: options.maxPayloadBytes }),
    });
    entries.push(journalEntryOf(message, messageTypeOf(message)));
    if (result.outcome !== "committed") continue;
    record = result.record;
    live = result.live;
    steps.push({ generation: generationOf(record), record });
  }
  return {
    actor: {
      address: formatAddress(address),
      machineVersion: record?.machineVersion ?? definition.version,
      journal: entries,
      generations: steps.map((step) => step.generation),
    },
    steps,
  };
}

/**
 * A generation as a history holds it: the record's state, effects and timers
 * as JSON, its outbox as subjects and message ids.
 *
 * @param record - a committed record.
 * @returns the history generation (without `stored`).
 */
export function generationOf(record: ActorRecord): HistoryGeneration {
  return {
    generation: record.generation,
    inboxSeq: record.inboxSeq,
    machineVersion: record.machineVersion,
    state: toHistoryJson(record.state),
    eventSeq: record.eventSeq,
    effects: record.effects.map((effect) => toHistoryJson(effect)),
    timers: record.timers.map((timer) => toHistoryJson(timer)),
    outbox: record.outbox.map((item) => ({ subject: item.subject, messageId: item.messageId })),
  };
}

function journalEntryOf(message: InboxMessage, type: string | undefined): HistoryJournalEntry {
  return {
    seq: message.seq,
    subject: message.subject,
    ...(message.contentType === undefined ? {} : { contentType: message.contentType }),
    timestampMs: message.timestampMs,
    data: Buffer.from(message.data).toString("base64"),
    ...(type === undefined ? {} : { type }),
  };
}

/** The envelope's `type`, for people reading a history; undefined when the bytes do not decode. */
function messageTypeOf(message: InboxMessage): string | undefined {
  try {
    const body = decodeBody(message.data, { contentType: message.contentType });
    return typeof body["type"] === "string" ? body["type"] : undefined;
  } catch {
    return undefined;
  }
}
