import { describe, expect, it } from "vitest";
import { groupTurns, summarizeHops } from "./hop-breakdown.js";
import type { JournaledMessage } from "./inbox-journal.js";

let seq = 0;
const message = (
  actor: string,
  type: string,
  storedAtMs: number,
  payload: Record<string, unknown> = {},
): JournaledMessage => {
  const [kind = "", id = ""] = actor.split("/");
  seq += 1;
  return { seq, kind, id, type, payload, storedAtMs };
};

/** A one-read-tool turn of session `s`, run `runId`, starting at `at` (ms), 1 ms a hop. */
const toolTurn = (s: string, runId: string, at: number): JournaledMessage[] => [
  message(`session/${s}`, "user.message", at, { text: "/tool lookup" }),
  message(`run/${s}`, "run.start", at + 1, { runId, sessionId: s }),
  message(`run/${s}`, "effect.completed", at + 2, { effectId: `${runId}.m1.a1` }),
  message(`tool/t-${s}-${runId}`, "tool.start", at + 3, { runId, sessionId: s }),
  message(`tool/t-${s}-${runId}`, "effect.completed", at + 4, { effectId: "execute" }),
  message(`run/${s}`, "tool.finished", at + 5, { runId }),
  message(`run/${s}`, "effect.completed", at + 6, { effectId: `${runId}.m2.a1` }),
  message(`session/${s}`, "run.finished", at + 7, { runId }),
];

const toolLabels = [
  "user.message",
  "run.start",
  "effect.completed (model call 1)",
  "tool.start",
  "effect.completed (tool execute)",
  "tool.finished",
  "effect.completed (model call 2)",
  "run.finished",
];

describe("groupTurns", () => {
  it("ties every journaled message to its turn across interleaved sessions", () => {
    const a = toolTurn("a", "r2", 100);
    const b = toolTurn("b", "r5", 103);
    // Interleave by time, as the shared inbox stream stores them.
    const interleaved = [...a, ...b].sort((x, y) => x.storedAtMs - y.storedAtMs);
    const turns = groupTurns(interleaved);
    expect(turns.map((turn) => [turn.sessionId, turn.runId])).toEqual([
      ["a", "r2"],
      ["b", "r5"],
    ]);
    for (const turn of turns) expect(turn.hops.map((hop) => hop.label)).toEqual(toolLabels);
    expect(turns[1]?.hops.map((hop) => hop.atMs)).toEqual([103, 104, 105, 106, 107, 108, 109, 110]);
  });

  it("pairs a message sent during a run with the run that follows, and labels agent.resolve", () => {
    const messages = [
      message("session/s", "user.message", 0),
      message("session/s", "effect.completed", 1, { effectId: "agent.1" }),
      message("run/s", "run.start", 2, { runId: "r1", sessionId: "s" }),
      message("run/s", "effect.completed", 3, { effectId: "r1.m1.a1" }),
      // The next message is stored before the session took the first run's end.
      message("session/s", "user.message", 4),
      message("session/s", "run.finished", 5, { runId: "r1" }),
      message("run/s", "run.start", 6, { runId: "r2", sessionId: "s" }),
      message("run/s", "effect.completed", 7, { effectId: "r2.m1.a1" }),
      message("session/s", "run.finished", 8, { runId: "r2" }),
    ];
    const turns = groupTurns(messages);
    expect(turns.map((turn) => turn.hops.map((hop) => `${hop.label}@${hop.atMs}`))).toEqual([
      [
        "user.message@0",
        "effect.completed (agent.resolve)@1",
        "run.start@2",
        "effect.completed (model call 1)@3",
        "run.finished@5",
      ],
      ["user.message@4", "run.start@6", "effect.completed (model call 1)@7", "run.finished@8"],
    ]);
  });

  it("drops the messages of a run whose user message lies before the range", () => {
    const messages = [
      message("run/s", "effect.completed", 0, { effectId: "r1.m1.a1" }),
      message("session/s", "run.finished", 1, { runId: "r1" }),
      ...toolTurn("s", "r2", 10),
    ];
    const turns = groupTurns(messages);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.hops.map((hop) => hop.label)).toEqual(toolLabels);
  });
});

describe("summarizeHops", () => {
  it("adds the client send and run.completed arrival and gives median times per hop", () => {
    const turns = groupTurns([
      message("session/a", "user.message", 1000),
      message("run/a", "run.start", 1002, { runId: "r1", sessionId: "a" }),
      message("run/a", "effect.completed", 1005, { effectId: "r1.m1.a1" }),
      message("session/a", "run.finished", 1009, { runId: "r1" }),
      message("session/a", "user.message", 2000),
      message("run/a", "run.start", 2004, { runId: "r2", sessionId: "a" }),
      message("run/a", "effect.completed", 2009, { effectId: "r2.m1.a1" }),
      message("session/a", "run.finished", 2013, { runId: "r2" }),
      message("session/a", "user.message", 3000),
      message("run/a", "run.start", 3006, { runId: "r3", sessionId: "a" }),
      message("run/a", "effect.completed", 3013, { effectId: "r3.m1.a1" }),
      message("session/a", "run.finished", 3017, { runId: "r3" }),
    ]);
    const breakdown = summarizeHops(turns, [
      // Given out of order: matched by send time within the session.
      { sessionId: "a", sentAtMs: 2999, completedAtMs: 3014 },
      { sessionId: "a", sentAtMs: 999, completedAtMs: 1006 },
      { sessionId: "a", sentAtMs: 1999, completedAtMs: 2010 },
    ]);
    expect(breakdown.turns).toBe(3);
    expect(breakdown.matchedTurns).toBe(3);
    expect(breakdown.rows).toEqual([
      { label: "client send", sinceUserMessageMs: undefined, sincePreviousMs: undefined },
      { label: "user.message", sinceUserMessageMs: 0, sincePreviousMs: 1 },
      { label: "run.start", sinceUserMessageMs: 4, sincePreviousMs: 4 },
      { label: "effect.completed (model call 1)", sinceUserMessageMs: 9, sincePreviousMs: 5 },
      { label: "run.completed (arrival)", sinceUserMessageMs: 10, sincePreviousMs: 1 },
      { label: "run.finished", sinceUserMessageMs: 13, sincePreviousMs: 3 },
    ]);
  });

  it("returns no rows when no journaled turn has a client timing", () => {
    const turns = groupTurns(toolTurn("x", "r1", 0));
    expect(summarizeHops(turns, [])).toEqual({ turns: 0, matchedTurns: 0, rows: [] });
  });
});
