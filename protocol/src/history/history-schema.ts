import { z } from "zod";
import { actorAddressTextSchema } from "@troupe/addressing";

// The recorded-history format: what `troupe history export` writes
// and `replayHistory` reads. A contract across releases: fields are only ever
// added (optional); a change that old readers could misread raises
// `HISTORY_FORMAT_VERSION`, and readers keep loading every older version
// (`protocol/src/history/fixtures/` holds one file per version, and a test
// loads each).

/** The `format` field of every history document. */
export const HISTORY_FORMAT = "troupe.history";

/** The format version this package writes, and the newest it reads. */
export const HISTORY_FORMAT_VERSION = 1;

/** A JSON value as a history stores it (bytes become `{ "$base64": "…" }`, see `toHistoryJson`). */
export type HistoryJson =
  | null
  | boolean
  | number
  | string
  | readonly HistoryJson[]
  | { readonly [key: string]: HistoryJson };

const jsonSchema: z.ZodType<HistoryJson> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(jsonSchema),
    z.record(z.string(), jsonSchema),
  ]),
);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * One journaled inbox message, exactly as the inbox stream stored it: the
 * bytes (`data`, base64), the `Content-Type` header, the stream sequence and
 * the stream's timestamp (the step's deterministic "now"). `type` is the
 * envelope's message type, for people reading the file; replay ignores it.
 */
export const historyJournalEntrySchema = z.object({
  /** Inbox stream sequence (> 0, increasing within an actor). */
  seq: z.number().int().positive(),
  /** The shard inbox subject the message was stored under. */
  subject: z.string().min(1),
  /** `Content-Type` header; absent when the publisher set none. */
  contentType: z.string().optional(),
  /** Stream timestamp, Unix ms. */
  timestampMs: z.number().int().nonnegative(),
  /** The stored bytes, base64. */
  data: z.string().regex(BASE64, "must be base64"),
  /** Message type (`user.message`, `effect.completed`, …), informative only. */
  type: z.string().optional(),
});

/** One outbox item of a generation: where it went and its `Nats-Msg-Id` (not its bytes). */
export const historyOutboxItemSchema = z.object({
  subject: z.string().min(1),
  messageId: z.string().min(1),
});

/**
 * One snapshot generation of an actor, as the step produced it from the
 * journal up to `inboxSeq`: the persisted xstate snapshot (`state`), the
 * effects it requested and has not had answered, its armed durable timers, the
 * last event sequence, and where its outbox went.
 */
export const historyGenerationSchema = z.object({
  /** Snapshot generation, from 1. */
  generation: z.number().int().positive(),
  /** Inbox sequence of the message that produced it. */
  inboxSeq: z.number().int().positive(),
  /** Machine version that wrote `state` (the kind's `version`). */
  machineVersion: z.string().min(1),
  /** The persisted xstate snapshot. */
  state: jsonSchema,
  /** Last event sequence of the actor (gapless, from 1). */
  eventSeq: z.number().int().nonnegative(),
  /** Pending effects: `{ effectId, effect, input, cancelled? }`. */
  effects: z.array(jsonSchema),
  /** Armed durable timers: `{ timerId, deadlineMs, event }`. */
  timers: z.array(jsonSchema),
  /** The outbox of the transition (subjects and message ids). */
  outbox: z.array(historyOutboxItemSchema),
  /**
   * True when this generation was compared at export time with the one the
   * snapshot store held, and equal (the export refuses a history that does not
   * reproduce its stored snapshots).
   */
  stored: z.boolean().optional(),
});

/** The agent a session ran, with the version its definition declared (`defineAgent({ version })`). */
export const historyAgentSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1).optional(),
});

/** One actor of a history: its journal and the generations the journal produced. */
export const historyActorSchema = z.object({
  /** `kind/id`. */
  address: actorAddressTextSchema,
  /** Machine version of the latest generation. */
  machineVersion: z.string().min(1),
  /** The journal, oldest first (every message the actor's inbox received; at least one). */
  journal: z.array(historyJournalEntrySchema).min(1),
  /** Every generation, oldest first (generation n is the n-th commit). */
  generations: z.array(historyGenerationSchema),
});

/** Who wrote the document: the Troupe release and the agents the hosts served. */
export const historyProducerSchema = z.object({
  /** Version of `@troupe/runtime` that exported it. */
  troupe: z.string().min(1).optional(),
  /** Agents served by the exporting deployment (name and declared version). */
  agents: z.array(historyAgentSchema).optional(),
});

/**
 * A recorded history, format version 1: one actor (or, with `tree`, a whole
 * conversation: the session, its run actor, its tool calls and subagent
 * sessions), self-contained — replayable offline with nothing but the
 * machines (`replayHistory`).
 *
 * Shape: `{ format: "troupe.history", formatVersion: 1, exportedAtMs, root,
 * tree, producer?, actors: [{ address, machineVersion, journal: [...],
 * generations: [...] }] }`. The file format (JSON or NDJSON) and every field
 * are described in the protocol README, "Recorded histories".
 */
export const troupeHistorySchema = z
  .object({
    format: z.literal(HISTORY_FORMAT),
    formatVersion: z.literal(HISTORY_FORMAT_VERSION),
    /** When it was exported, Unix ms. */
    exportedAtMs: z.number().int().nonnegative(),
    /** The actor the export started from (`kind/id`); one of `actors`. */
    root: actorAddressTextSchema,
    /** Whether the actors the root's outbox reached were followed (`--tree`). */
    tree: z.boolean(),
    producer: historyProducerSchema.optional(),
    /** At least the root; each address once. */
    actors: z.array(historyActorSchema).min(1),
  })
  .superRefine(checkConsistency);

/**
 * What the types cannot say: the root is one of the actors, each actor is there
 * once, journal sequences increase, and generations count 1, 2, 3, … each at
 * an inbox sequence of the journal, in journal order — so a cut or edited file
 * is refused instead of replaying a part of a conversation.
 */
function checkConsistency(
  history: {
    readonly root: string;
    readonly actors: readonly z.infer<typeof historyActorSchema>[];
  },
  context: z.RefinementCtx,
): void {
  const issue = (message: string, path: (string | number)[]) =>
    context.addIssue({ code: "custom", message, path });
  const addresses = history.actors.map((actor) => actor.address);
  if (!addresses.includes(history.root)) {
    issue(`the root ${history.root} is not one of the history's actors`, ["root"]);
  }
  history.actors.forEach((actor, index) => {
    if (addresses.indexOf(actor.address) !== index) {
      issue(`actor ${actor.address} appears more than once`, ["actors", index, "address"]);
    }
    const seqs = actor.journal.map((entry) => entry.seq);
    const unordered = seqs.findIndex((seq, at) => at > 0 && seq <= seqs[at - 1]!);
    if (unordered >= 0) {
      issue(`journal sequences must increase (${seqs[unordered - 1]} then ${seqs[unordered]})`, [
        "actors",
        index,
        "journal",
        unordered,
        "seq",
      ]);
    }
    let lastSeq = 0;
    actor.generations.forEach((generation, at) => {
      const path = ["actors", index, "generations", at];
      if (generation.generation !== at + 1) {
        issue(
          `generation ${generation.generation} is at position ${at + 1}: generations count 1, 2, 3, …`,
          [...path, "generation"],
        );
      } else if (!seqs.includes(generation.inboxSeq) || generation.inboxSeq <= lastSeq) {
        issue(
          `generation ${generation.generation} reflects inbox seq ${generation.inboxSeq}, which is not a later message of the journal`,
          [...path, "inboxSeq"],
        );
      }
      lastSeq = generation.inboxSeq;
    });
  });
}

/** One journaled inbox message of a history. */
export type HistoryJournalEntry = z.infer<typeof historyJournalEntrySchema>;
/** One outbox item of a generation. */
export type HistoryOutboxItem = z.infer<typeof historyOutboxItemSchema>;
/** One snapshot generation of a history. */
export type HistoryGeneration = z.infer<typeof historyGenerationSchema>;
/** One actor of a history. */
export type HistoryActor = z.infer<typeof historyActorSchema>;
/** An agent named in a history. */
export type HistoryAgent = z.infer<typeof historyAgentSchema>;
/** A recorded history (format version 1). */
export type TroupeHistory = z.infer<typeof troupeHistorySchema>;
