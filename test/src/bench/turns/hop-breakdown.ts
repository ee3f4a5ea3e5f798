import { median } from "../format-numbers.js";
import type { JournaledMessage } from "./inbox-journal.js";

/** One journaled step of a turn, or a client-side moment (send, `run.completed` arrival). */
export interface TurnHop {
  /** e.g. `run.start`, `effect.completed (model call 1)`, `run.completed (arrival)`. */
  readonly label: string;
  /** Unix ms. */
  readonly atMs: number;
}

/** The journaled messages of one turn (a user message and the run it started). */
export interface JournaledTurn {
  readonly sessionId: string;
  /** Undefined while no `run.start` of the turn was seen. */
  readonly runId: string | undefined;
  /** In stream order, starting with `user.message`. */
  readonly hops: readonly TurnHop[];
}

interface MutableTurn {
  sessionId: string;
  runId: string | undefined;
  hops: TurnHop[];
  modelCalls: number;
}

interface RunRef {
  readonly sessionId: string;
  readonly runId: string;
}

const asString = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/**
 * Groups inbox messages into turns: a session's `user.message`, the `run.start`
 * the session sends for it (the n-th user message of a session pairs with its
 * n-th `run.start` in the range), and every later message of that run — the
 * run actor's model results and `tool.finished`, the tool actors' `tool.start`
 * and results (tied to the run by `tool.start`'s `runId`), the session's
 * `agent.resolve` result and `run.finished`. Messages of runs whose user message
 * lies before the range are dropped.
 *
 * @param messages - inbox messages in stream order.
 * @returns the turns, in the order of their user messages.
 */
export function groupTurns(messages: readonly JournaledMessage[]): JournaledTurn[] {
  const turns: MutableTurn[] = [];
  const byRun = new Map<string, MutableTurn>();
  const waitingForRun = new Map<string, MutableTurn[]>();
  const currentRunOfActor = new Map<string, RunRef>();
  const runKey = (sessionId: string, runId: string) => `${sessionId}/${runId}`;
  const add = (turn: MutableTurn | undefined, label: string, atMs: number) => {
    if (turn === undefined) return;
    const repeats = turn.hops.filter((hop) => hop.label.split(" #")[0] === label).length;
    turn.hops.push({ label: repeats === 0 ? label : `${label} #${repeats + 1}`, atMs });
  };
  const turnOfActor = (actor: string) => {
    const ref = currentRunOfActor.get(actor);
    return ref === undefined ? undefined : byRun.get(runKey(ref.sessionId, ref.runId));
  };

  for (const message of messages) {
    const actor = `${message.kind}/${message.id}`;
    const at = message.storedAtMs;
    const runId = asString(message.payload.runId);
    const sessionId = asString(message.payload.sessionId);
    if (message.kind === "session") {
      const waiting = waitingForRun.get(message.id) ?? [];
      if (message.type === "user.message") {
        const turn: MutableTurn = {
          sessionId: message.id,
          runId: undefined,
          hops: [],
          modelCalls: 0,
        };
        turns.push(turn);
        waiting.push(turn);
        waitingForRun.set(message.id, waiting);
        add(turn, "user.message", at);
      } else if (message.type === "run.finished" && runId !== undefined) {
        add(byRun.get(runKey(message.id, runId)), "run.finished", at);
      } else if (message.type === "effect.completed" || message.type === "effect.failed") {
        const effect = asString(message.payload.effectId) ?? "";
        const label = `${message.type} (${effect.startsWith("agent") ? "agent.resolve" : "session effect"})`;
        add(waiting[0] ?? turnOfActor(actor), label, at);
      } else {
        add(waiting[0] ?? turnOfActor(actor), message.type, at);
      }
    } else if (message.kind === "run") {
      if (message.type === "run.start" && runId !== undefined && sessionId !== undefined) {
        currentRunOfActor.set(actor, { sessionId, runId });
        const turn = waitingForRun.get(sessionId)?.shift();
        if (turn !== undefined) {
          turn.runId = runId;
          byRun.set(runKey(sessionId, runId), turn);
          add(turn, "run.start", at);
        }
      } else {
        const turn = turnOfActor(actor);
        if (message.type === "effect.completed" && turn !== undefined) {
          turn.modelCalls += 1;
          add(turn, `effect.completed (model call ${turn.modelCalls})`, at);
        } else {
          add(turn, message.type, at);
        }
      }
    } else if (message.kind === "tool") {
      if (message.type === "tool.start" && runId !== undefined && sessionId !== undefined)
        currentRunOfActor.set(actor, { sessionId, runId });
      const label =
        message.type === "effect.completed" ? "effect.completed (tool execute)" : message.type;
      add(turnOfActor(actor), label, at);
    }
  }
  return turns.map(({ sessionId, runId, hops }) => ({ sessionId, runId, hops }));
}

/** A client-side turn: when it was sent and when its `run.completed` arrived (Unix ms). */
export interface ClientTurn {
  readonly sessionId: string;
  readonly sentAtMs: number;
  readonly completedAtMs: number;
}

/** One row of {@link summarizeHops}. */
export interface HopRow {
  readonly label: string;
  /** Median time from the user message's storage, in ms (undefined for the send). */
  readonly sinceUserMessageMs: number | undefined;
  /** Median time from the previous row's moment in the same turn, in ms. */
  readonly sincePreviousMs: number | undefined;
}

/** What {@link summarizeHops} found. */
export interface HopBreakdown {
  /** Turns of the most common shape, which the rows summarize. */
  readonly turns: number;
  /** Turns matched with a client timing. */
  readonly matchedTurns: number;
  readonly rows: readonly HopRow[];
}

/**
 * The per-hop breakdown of turns: each journaled turn gets its client send (first)
 * and `run.completed` arrival (placed by time) from `clientTurns` — the n-th
 * turn of a session in `turns` is its n-th in `clientTurns` by send time — and
 * the turns of the most common sequence of labels are summarized hop by hop,
 * as medians.
 *
 * @param turns - from {@link groupTurns}.
 * @param clientTurns - the same turns as the client saw them.
 * @returns the rows in the turn's order; empty when nothing matched.
 */
export function summarizeHops(
  turns: readonly JournaledTurn[],
  clientTurns: readonly ClientTurn[],
): HopBreakdown {
  const bySession = new Map<string, ClientTurn[]>();
  for (const turn of [...clientTurns].sort((a, b) => a.sentAtMs - b.sentAtMs)) {
    const list = bySession.get(turn.sessionId) ?? [];
    list.push(turn);
    bySession.set(turn.sessionId, list);
  }
  const timelines: TurnHop[][] = [];
  for (const turn of turns) {
    if (turn.hops[0]?.label !== "user.message") continue;
    const client = bySession.get(turn.sessionId)?.shift();
    if (client === undefined) continue;
    const timeline = [
      ...turn.hops,
      { label: "run.completed (arrival)", atMs: client.completedAtMs },
    ];
    timeline.sort((a, b) => a.atMs - b.atMs);
    timelines.push([{ label: "client send", atMs: client.sentAtMs }, ...timeline]);
  }
  const shapes = new Map<string, TurnHop[][]>();
  for (const timeline of timelines) {
    const shape = timeline.map((hop) => hop.label).join("|");
    shapes.set(shape, [...(shapes.get(shape) ?? []), timeline]);
  }
  const common = [...shapes.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const first = common[0];
  if (first === undefined) return { turns: 0, matchedTurns: timelines.length, rows: [] };
  const rows = first.map((hop, index): HopRow => {
    const userIndex = first.findIndex((candidate) => candidate.label === "user.message");
    const since = (from: number) =>
      median(
        common.map((timeline) => (timeline[index]?.atMs ?? NaN) - (timeline[from]?.atMs ?? NaN)),
      );
    return {
      label: hop.label,
      sinceUserMessageMs: index === 0 ? undefined : since(userIndex),
      sincePreviousMs: index === 0 ? undefined : since(index - 1),
    };
  });
  return { turns: common.length, matchedTurns: timelines.length, rows };
}
