import {
  parseAddress,
  toHistoryJson,
  type HistoryActor,
  type HistoryGeneration,
  type HistoryJson,
  type TroupeHistory,
} from "@troupe/protocol";
import {
  type ActorKindDefinition,
  assertSupportedMachine,
  type ActorRecord,
  processMessage,
  type InboxMessage,
  type StepResult,
  readStoredState,
} from "@troupe/step/internal";
import { firstDifference } from "./first-difference.js";
import { withoutTrace } from "./without-trace.js";

/** The kinds a replay may use: a list, or a map by kind name. */
export type ReplayKinds = ReadonlyMap<string, ActorKindDefinition> | readonly ActorKindDefinition[];

/** Options of {@link replayRecordedHistory}. */
export interface RecordedHistoryReplayOptions {
  /** The kind definitions to replay with (only machine, version, migrate, schemas, input, toEvent and eventAddress are used; no effect runs). */
  readonly kinds: ReplayKinds;
  /** The history, as `parseHistory` returns it. */
  readonly history: TroupeHistory;
  /** The hosts' `maxPayloadBytes` (default: the protocol's 1 MiB). */
  readonly maxPayloadBytes?: number;
}

/** An effect a step asked the host to start. */
export interface RequestedEffect {
  readonly effectId: string;
  /** Effect name, e.g. `model.call`. */
  readonly effect: string;
  readonly input: HistoryJson;
}

/** What the replay did with one journaled message. */
export interface ReplayedStep {
  /** Inbox sequence of the message. */
  readonly inboxSeq: number;
  /** Message type as recorded (informative). */
  readonly messageType: string | undefined;
  /** The step's outcome: `committed`, `skipped`, `not_created`, or a refusal. */
  readonly outcome: string;
  /** The generation it produced (for `committed`). */
  readonly generation: number | undefined;
  /** Effects the step requested, in order. */
  readonly effectsRequested: readonly RequestedEffect[];
  /** Set when the message was rejected (dead-lettered) — as it was when recorded, or the replay diverges. */
  readonly rejection: { readonly code: string; readonly message: string } | undefined;
}

/**
 * Where a replay first disagrees with the recording.
 *
 * Shape: `{ actor, generation, inboxSeq, messageType, path, expected, got,
 * reason }` — `path` is JSON-pointer-like within the generation
 * (`/state/value`, `/state/context/runCount`, `/effects/0/input/…`,
 * `/eventSeq`, `/outbox/1/subject`), `expected` the recorded value (migrated to
 * the replaying version when it was written by another), `got` the replayed one.
 */
export interface HistoryDivergence {
  /** `kind/id`. */
  readonly actor: string;
  /** The recorded generation compared (undefined when the recording has none for this message). */
  readonly generation: number | undefined;
  readonly inboxSeq: number;
  readonly messageType: string | undefined;
  readonly path: string;
  readonly expected: unknown;
  readonly got: unknown;
  /** One sentence saying what differs. */
  readonly reason: string;
}

/** What a replay found for one actor of a history. */
export interface ActorReplayReport {
  /** `kind/id`. */
  readonly actor: string;
  /** Machine versions the recorded generations were written by, oldest first, without repeats. */
  readonly recordedVersions: readonly string[];
  /** The replaying kind's version; undefined when no kind was given for the actor. */
  readonly replayedVersion: string | undefined;
  /** True when some recorded generation was read through the kind's `migrate` hook. */
  readonly migrated: boolean;
  readonly reproduces: boolean;
  /** Messages in the actor's recorded journal. */
  readonly journalLength: number;
  /** One entry per journaled message replayed, up to the divergence. */
  readonly steps: readonly ReplayedStep[];
  readonly divergence: HistoryDivergence | undefined;
}

/** What {@link replayRecordedHistory} found. */
export interface HistoryReplayReport {
  /** The history's root actor. */
  readonly root: string;
  /** True when every actor reproduces. */
  readonly reproduces: boolean;
  /** One report per actor, in the history's order. */
  readonly actors: readonly ActorReplayReport[];
  /** The first divergence, in the history's actor order. */
  readonly divergence: HistoryDivergence | undefined;
}

/**
 * Replays a recorded history offline through the pure step, with the given
 * kinds, and reports the first divergence (docs/decisions/0020). No servers, no clocks:
 * pure and deterministic.
 *
 * Every journaled message is applied to the recorded generation before it (so
 * one difference does not cascade), and the generation it produces is compared
 * with the recorded one: persisted xstate snapshot, pending effects, armed
 * timers, event sequence and outbox (subjects and message ids). A recorded
 * generation written by another machine version goes through the kind's
 * `migrate` hook on both sides — the state the step starts from, and the
 * recorded state it must reach — which is how a migration is tested against
 * recorded fixtures. A message the recording committed and the replay does not
 * (or the other way round) is a divergence too.
 *
 * @param options - kinds, history and the hosts' `maxPayloadBytes`.
 * @returns the report; `reproduces` is true when every actor replays to its
 *   recording.
 * @throws UnsupportedMachineActionError when a kind's machine uses an action the
 *   host cannot carry out.
 * @example
 * const report = replayRecordedHistory({ kinds: [counterKind], history: parseHistory(text) });
 * if (!report.reproduces) throw new Error(formatHistoryReplayReport(report));
 */
export function replayRecordedHistory(options: RecordedHistoryReplayOptions): HistoryReplayReport {
  const kinds = kindMap(options.kinds);
  for (const kind of kinds.values()) assertSupportedMachine(kind);
  const actors = options.history.actors.map((actor) =>
    replayActorHistory(actor, kinds, options.maxPayloadBytes),
  );
  const divergence = actors.find((actor) => actor.divergence !== undefined)?.divergence;
  return {
    root: options.history.root,
    reproduces: divergence === undefined,
    actors,
    divergence,
  };
}

function kindMap(kinds: ReplayKinds): ReadonlyMap<string, ActorKindDefinition> {
  if (!Array.isArray(kinds)) return kinds as ReadonlyMap<string, ActorKindDefinition>;
  return new Map((kinds as readonly ActorKindDefinition[]).map((kind) => [kind.kind, kind]));
}

function replayActorHistory(
  actor: HistoryActor,
  kinds: ReadonlyMap<string, ActorKindDefinition>,
  maxPayloadBytes: number | undefined,
): ActorReplayReport {
  const address = parseAddress(actor.address);
  const recordedVersions = [...new Set(actor.generations.map((g) => g.machineVersion))];
  const definition = kinds.get(address.kind);
  const base = { actor: actor.address, recordedVersions, journalLength: actor.journal.length };
  if (definition === undefined) {
    const divergence: HistoryDivergence = {
      actor: actor.address,
      generation: undefined,
      inboxSeq: actor.journal[0]?.seq ?? 0,
      messageType: actor.journal[0]?.type,
      path: "/",
      expected: `a kind definition for "${address.kind}"`,
      got: [...kinds.keys()],
      reason: `no kind "${address.kind}" was given to replay ${actor.address} with (given: ${[...kinds.keys()].join(", ") || "none"})`,
    };
    return {
      ...base,
      replayedVersion: undefined,
      migrated: false,
      reproduces: false,
      steps: [],
      divergence,
    };
  }
  const recorded = new Map(
    actor.generations.map((generation) => [generation.inboxSeq, generation]),
  );
  const migrated = recordedVersions.some((version) => version !== definition.version);
  const steps: ReplayedStep[] = [];
  let previous: ActorRecord | undefined;
  let divergence: HistoryDivergence | undefined;
  for (const entry of actor.journal) {
    const message: InboxMessage = {
      seq: entry.seq,
      subject: entry.subject,
      data: new Uint8Array(Buffer.from(entry.data, "base64")),
      contentType: entry.contentType,
      timestampMs: entry.timestampMs,
    };
    const result = processMessage(previous, message, {
      definition,
      address,
      ...(maxPayloadBytes === undefined ? {} : { maxPayloadBytes }),
    });
    steps.push(stepOf(entry.seq, entry.type, result));
    const expected = recorded.get(entry.seq);
    const where = {
      actor: actor.address,
      generation: expected?.generation,
      inboxSeq: entry.seq,
      messageType: entry.type,
    };
    if (result.outcome !== "committed") {
      if (expected !== undefined || !isQuietOutcome(result)) {
        divergence = {
          ...where,
          path: "/",
          expected:
            expected === undefined
              ? "no generation"
              : `generation ${expected.generation} committed`,
          got: result.outcome,
          reason: refusalReason(result, expected),
        };
        break;
      }
      continue;
    }
    if (expected === undefined) {
      divergence = {
        ...where,
        path: "/",
        expected: "no generation",
        got: `generation ${result.record.generation} committed`,
        reason: `the replay committed a generation for this message; the recording has none`,
      };
      break;
    }
    const reading = readRecorded(actor.address, expected, definition);
    if (reading.error !== undefined) {
      divergence = {
        ...where,
        path: "/machineVersion",
        expected: expected.machineVersion,
        got: definition.version,
        reason: reading.error,
      };
      break;
    }
    const difference = firstDifference(reading.comparable, comparable(result.record));
    if (difference !== undefined) {
      divergence = {
        ...where,
        path: difference.path,
        expected: difference.expected,
        got: difference.actual,
        reason: `generation ${expected.generation} differs at ${difference.path}`,
      };
      break;
    }
    previous = recordOf(actor.address, expected);
  }
  if (divergence === undefined) {
    const journaled = new Set(actor.journal.map((entry) => entry.seq));
    const orphan = actor.generations.find((generation) => !journaled.has(generation.inboxSeq));
    if (orphan !== undefined) {
      divergence = {
        actor: actor.address,
        generation: orphan.generation,
        inboxSeq: orphan.inboxSeq,
        messageType: undefined,
        path: "/",
        expected: `the message at inbox seq ${orphan.inboxSeq}`,
        got: "not in the journal",
        reason: `generation ${orphan.generation} reflects inbox seq ${orphan.inboxSeq}, which the history's journal does not hold`,
      };
    }
  }
  return {
    ...base,
    replayedVersion: definition.version,
    migrated,
    reproduces: divergence === undefined,
    steps,
    divergence,
  };
}

/** Outcomes that write nothing and are expected when the recording has no generation. */
function isQuietOutcome(result: StepResult): boolean {
  return result.outcome === "skipped" || result.outcome === "not_created";
}

function refusalReason(result: StepResult, expected: HistoryGeneration | undefined): string {
  const detail =
    result.outcome === "refused"
      ? `: ${result.error.message}`
      : result.outcome === "not_created" && result.rejection !== undefined
        ? ` (the message was rejected: ${result.rejection.code}: ${result.rejection.message})`
        : "";
  if (expected === undefined) return `the step refused the message${detail}`;
  return `the recording committed generation ${expected.generation} for this message; the replay's step ended ${result.outcome}${detail}`;
}

function stepOf(seq: number, type: string | undefined, result: StepResult): ReplayedStep {
  const committed = result.outcome === "committed" ? result : undefined;
  const rejection =
    committed?.rejection ?? (result.outcome === "not_created" ? result.rejection : undefined);
  return {
    inboxSeq: seq,
    messageType: type,
    outcome: result.outcome,
    generation: committed?.record.generation,
    effectsRequested: (committed?.effectsStarted ?? []).map((effect) => ({
      effectId: effect.effectId,
      effect: effect.effect,
      input: toHistoryJson(effect.input),
    })),
    rejection:
      rejection === undefined ? undefined : { code: rejection.code, message: rejection.message },
  };
}

/** The parts of a generation a replay compares, as JSON. */
function comparable(record: ActorRecord): HistoryJson {
  return toHistoryJson({
    state: record.state,
    effects: withoutTrace(record.effects),
    timers: record.timers,
    eventSeq: record.eventSeq,
    outbox: record.outbox.map((item) => ({ subject: item.subject, messageId: item.messageId })),
  });
}

/** The recorded generation in the replaying version's shape (as a host reads it), or why it cannot be read. */
function readRecorded(
  address: string,
  generation: HistoryGeneration,
  definition: ActorKindDefinition,
): { comparable: HistoryJson; error?: undefined } | { error: string } {
  const read = readStoredState(recordOf(address, generation), definition);
  if (!read.readable) {
    const why =
      read.error.cause === undefined
        ? "has no migrate hook"
        : `could not migrate it: ${messageOf(read.error.cause)}`;
    return {
      error:
        `generation ${generation.generation} was written by machine version ${generation.machineVersion}; ` +
        `the replaying kind "${definition.kind}" runs version ${definition.version} and ${why}`,
    };
  }
  return {
    comparable: toHistoryJson({
      state: read.state,
      effects: withoutTrace(generation.effects),
      timers: generation.timers,
      eventSeq: generation.eventSeq,
      outbox: generation.outbox,
    }),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A recorded generation as the step's input record (its outbox is not needed). */
function recordOf(address: string, generation: HistoryGeneration): ActorRecord {
  return {
    address,
    generation: generation.generation,
    inboxSeq: generation.inboxSeq,
    machineVersion: generation.machineVersion,
    state: generation.state,
    eventSeq: generation.eventSeq,
    effects: generation.effects as unknown as ActorRecord["effects"],
    timers: generation.timers as unknown as ActorRecord["timers"],
    outbox: [],
  };
}

/**
 * A replay report as text for people: one line per actor (`✓`/`✗`, versions,
 * steps) and, on a divergence, the actor, generation, message, path, expected
 * and got (values as JSON, long ones cut at 300 characters).
 *
 * @param report - from {@link replayRecordedHistory}.
 * @returns several lines, no trailing newline.
 */
export function formatHistoryReplayReport(report: HistoryReplayReport): string {
  const lines = [
    report.reproduces
      ? `history of ${report.root} replays: ${report.actors.length} actor(s) reproduce`
      : `history of ${report.root} does NOT replay`,
  ];
  for (const actor of report.actors) {
    const versions =
      actor.replayedVersion === undefined
        ? "no kind"
        : actor.migrated
          ? `machine v${actor.recordedVersions.join(", v")} → replayed as v${actor.replayedVersion} through migrate`
          : `machine v${actor.replayedVersion}`;
    const replayed =
      actor.steps.length === actor.journalLength
        ? `${actor.journalLength} message(s)`
        : `stopped at message ${actor.steps.length} of ${actor.journalLength}`;
    lines.push(`  ${actor.reproduces ? "✓" : "✗"} ${actor.actor} (${versions}, ${replayed})`);
  }
  const divergence = report.divergence;
  if (divergence !== undefined) {
    lines.push(
      `first divergence: ${divergence.actor}` +
        (divergence.generation === undefined ? "" : ` generation ${divergence.generation}`) +
        `, inbox seq ${divergence.inboxSeq}` +
        (divergence.messageType === undefined ? "" : ` (${divergence.messageType})`),
      `  ${divergence.reason}`,
      `  path:     ${divergence.path}`,
      `  expected: ${preview(divergence.expected)}`,
      `  got:      ${preview(divergence.got)}`,
    );
  }
  return lines.join("\n");
}

function preview(value: unknown): string {
  const text = value === undefined ? "(absent)" : JSON.stringify(toHistoryJson(value));
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
