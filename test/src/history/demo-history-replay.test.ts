import { readFileSync } from "node:fs";
import {
  AGENT_MACHINES_VERSION,
  agentMachineKinds,
  formatHistoryReplayReport,
  replayHistory,
} from "@troupe/agents";
import { parseAddress, parseHistory } from "@troupe/protocol";
import type { ActorKindDefinition } from "@troupe/runtime";
import { createMachine, type AnyStateMachine } from "xstate";
import { describe, expect, it } from "vitest";

// The Must-show of issue #14: a history recorded from a real `troupe dev`
// conversation (a tool call, an approval, a subagent; how it was recorded:
// ../fixtures/histories/README.md) replays offline, with no servers. A
// deliberately incompatible change to the session machine — its state
// `running` renamed `busy` — makes the replay fail with a readable divergence,
// and a migration (version 5, reading version-2 snapshots) makes it pass.

const FIXTURE = new URL("../fixtures/histories/demo-conversation.json", import.meta.url);
const history = parseHistory(readFileSync(FIXTURE, "utf8"));
const [pureSession] = agentMachineKinds();
const session = pureSession!;

/**
 * The machine with one top-level state renamed (its node and every transition
 * target naming it); everything else, implementations included, is unchanged.
 */
function renameState(machine: AnyStateMachine, from: string, to: string): AnyStateMachine {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => {
        if (key === "target" && item === from) return [key, to];
        if (key === "states" && typeof item === "object" && item !== null) {
          const states = Object.entries(item as Record<string, unknown>).map(([name, node]) => [
            name === from ? to : name,
            rewrite(node),
          ]);
          return [key, Object.fromEntries(states)];
        }
        return [key, rewrite(item)];
      }),
    );
  };
  return createMachine(rewrite(machine.config) as never, machine.implementations as never);
}

/** The session state value `running` (of a version-2 snapshot) is called `busy` in version 5. */
function migrateToBusy(persisted: unknown, fromVersion: string): unknown {
  if (fromVersion === "5") return persisted;
  // First the release's own migrations (to version 4), then the rename.
  const current = session.migrate!(persisted, fromVersion) as { value?: unknown };
  return current.value === "running" ? { ...current, value: "busy" } : current;
}

const busySession = renameState(session.machine, "running", "busy");

describe("a conversation recorded from troupe dev", () => {
  it("holds the session, its run, tool calls (one approved) and a subagent's session", () => {
    const kinds = history.actors.map((actor) => parseAddress(actor.address).kind);
    expect(kinds.filter((kind) => kind === "session").length).toBeGreaterThanOrEqual(2);
    expect(kinds).toContain("run");
    expect(kinds.filter((kind) => kind === "tool").length).toBeGreaterThanOrEqual(2);
    const types = history.actors.flatMap((actor) => actor.journal.map((entry) => entry.type));
    expect(types).toContain("tool.approve");
    expect(history.actors.every((actor) => actor.generations.at(-1)?.stored === true)).toBe(true);
  });

  it("replays offline with the agent machines of this release", () => {
    const report = replayHistory({ history });
    expect(report.divergence, formatHistoryReplayReport(report)).toBeUndefined();
    expect(report.reproduces).toBe(true);
    expect(report.actors).toHaveLength(history.actors.length);
    const effects = report.actors.flatMap((actor) =>
      actor.steps.flatMap((step) => step.effectsRequested.map((effect) => effect.effect)),
    );
    expect(new Set(effects)).toEqual(new Set(["agent.resolve", "model.call", "tool.execute"]));
  });

  it("an incompatible change to the session machine fails with a readable divergence", () => {
    const changed: ActorKindDefinition = { ...session, machine: busySession };
    const report = replayHistory({ history, kinds: [changed] });
    expect(report.reproduces).toBe(false);
    expect(report.divergence).toMatchObject({
      actor: history.root,
      path: "/state/value",
      expected: "running",
      got: "busy",
    });
    const text = formatHistoryReplayReport(report);
    expect(text).toContain(`first divergence: ${history.root} generation`);
    expect(text).toContain('expected: "running"');
    expect(text).toContain('got:      "busy"');

    // Bumping the version without a migration: the recorded snapshots cannot be read.
    const { migrate: releaseMigrations, ...withoutMigrations } = changed;
    expect(releaseMigrations).toBeDefined();
    const unreadable = replayHistory({ history, kinds: [{ ...withoutMigrations, version: "5" }] });
    expect(unreadable.divergence?.reason).toContain("has no migrate hook");
    // Bumping it with the release's migrations only (which know no `busy`) still diverges.
    const unmigrated = replayHistory({ history, kinds: [{ ...changed, version: "5" }] });
    expect(unmigrated.divergence).toMatchObject({ path: "/state/value", got: "busy" });
  });

  it("a migration from version 2 to 5 makes the recorded conversation replay", () => {
    expect(AGENT_MACHINES_VERSION).toBe("4");
    const migrated: ActorKindDefinition = {
      ...session,
      machine: busySession,
      version: "5",
      migrate: migrateToBusy,
    };
    const report = replayHistory({ history, kinds: [migrated] });
    expect(report.divergence, formatHistoryReplayReport(report)).toBeUndefined();
    const sessions = report.actors.filter((actor) => actor.actor.startsWith("session/"));
    expect(sessions.every((actor) => actor.migrated && actor.replayedVersion === "5")).toBe(true);
    expect(formatHistoryReplayReport(report)).toContain(
      "machine v2 → replayed as v4 through migrate",
    );
  });
});
