import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  formatHistory,
  type TroupeHistory,
} from "@troupe/protocol";
import { journalMessage, recordActorHistory } from "@troupe/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { agentMachineKinds } from "./agent-kinds.js";
import { defineAgent } from "./define-agent.js";
import { historyAgentsOf, replayHistories, replayHistory } from "./replay-history.js";

const address = { kind: "session", id: "s1" };
const [sessionKind] = agentMachineKinds();

const inbox = (seq: number, type: string, payload: Record<string, unknown>) =>
  journalMessage({ seq, address, type, payload });

// A session's first message: it asks `agent.resolve`, which answers with the
// agent's name and declared version (kept in the snapshot), then starts run r1.
function sessionHistory(version: string): TroupeHistory {
  const journal = [
    inbox(1, "user.message", { text: "hello", agent: "helper" }),
    inbox(2, "effect.completed", {
      effectId: "agent.1",
      output: { name: "helper", policy: "enqueue", maxModelCalls: 5, version },
    }),
  ];
  const { actor } = recordActorHistory(sessionKind!, address, journal);
  return {
    format: HISTORY_FORMAT,
    formatVersion: HISTORY_FORMAT_VERSION,
    exportedAtMs: 1_735_689_700_000,
    root: "session/s1",
    tree: false,
    actors: [actor],
  };
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("replayHistory (agents)", () => {
  it("names each agent and its subagents' agents as hosts register them, with declared versions", () => {
    const helper = defineAgent({ name: "helper", instructions: "Help.", version: "7" });
    const main = defineAgent({
      name: "main",
      instructions: "Delegate.",
      subagents: { aide: { description: "An aide.", agent: helper } },
    });
    expect(historyAgentsOf([main])).toEqual([
      { name: "main" },
      { name: "main--aide", version: "7" },
    ]);
  });

  it("replays a session with the agent machines; the snapshot records the agent's version, compared with the current one", () => {
    const history = sessionHistory("1");
    const last = history.actors[0]?.generations.at(-1)?.state as {
      value: unknown;
      context: { resolvedAgents: unknown[]; activeRunId: string };
    };
    expect(last.context.resolvedAgents).toEqual([
      { agent: "helper", name: "helper", policy: "enqueue", maxModelCalls: 5, version: "1" },
    ]);
    expect(last.context.activeRunId).toBe("r1");

    const helper = defineAgent({ name: "helper", instructions: "Help.", version: "2" });
    const report = replayHistory({ history: formatHistory(history), agent: helper });
    expect(report.reproduces).toBe(true);
    expect(
      report.actors[0]?.steps.map((step) => step.effectsRequested.map((e) => e.effect)),
    ).toEqual([["agent.resolve"], []]);
    expect(report.agentVersions).toEqual([
      { name: "helper", recorded: "1", current: "2", changed: true },
    ]);
  });

  it("replayHistories reads every history under a folder, reports a file that is not one, and fails a folder with none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "troupe-histories-"));
    dirs.push(dir);
    // No history at all is not a success: a CI test pointed at the wrong folder.
    expect(await replayHistories(dir)).toEqual({ reproduces: false, files: [] });
    await mkdir(join(dir, "nested"));
    await writeFile(join(dir, "a.json"), formatHistory(sessionHistory("1")));
    await writeFile(join(dir, "nested", "b.ndjson"), formatHistory(sessionHistory("1"), "ndjson"));
    await writeFile(join(dir, "notes.txt"), "not a history, not read");
    const good = await replayHistories(dir);
    expect(good.reproduces).toBe(true);
    expect(good.files.map((file) => [file.file, file.report?.reproduces])).toEqual([
      ["a.json", true],
      [join("nested", "b.ndjson"), true],
    ]);

    await writeFile(join(dir, "broken.json"), '{"format":"troupe.history","formatVersion":99}');
    const bad = await replayHistories(dir);
    expect(bad.reproduces).toBe(false);
    const broken = bad.files.find((file) => file.file === "broken.json");
    expect(broken?.error?.code).toBe("invalid_history");
    expect(broken?.error?.message).toContain("format version 99");
  });
});
