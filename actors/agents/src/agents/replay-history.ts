import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import {
  InvalidHistoryError,
  parseHistory,
  type HistoryAgent,
  type TroupeHistory,
} from "@troupe/protocol";
import {
  replayRecordedHistory,
  type ActorKindDefinition,
  type HistoryReplayReport,
} from "@troupe/runtime";
import type { AgentDefinition } from "./agent-definition.js";
import { agentMachineKinds } from "./agent-kinds.js";
import { subagentAgentName } from "./subagents.js";

/** Options of {@link replayHistory}. */
export interface ReplayHistoryOptions {
  /** The history: as `parseHistory` returns it, or a history file's text (JSON or NDJSON). */
  readonly history: TroupeHistory | string;
  /**
   * Kinds to replay with besides the agent kinds (`session`, `run`, `tool`,
   * from {@link agentMachineKinds}); one with the same `kind` replaces the
   * built-in one — how a test replays a changed or migrated machine. A custom
   * actor kind (your own machine) is given here too: a replay needs its message
   * schemas, not just the machine.
   */
  readonly kinds?: readonly ActorKindDefinition[];
  /**
   * The agents as defined now: the report compares their declared versions
   * (`defineAgent({ version })`) with the versions the recording's sessions
   * adopted. Informative: agent settings are journaled, so the replay itself
   * does not depend on them.
   */
  readonly agent?: AgentDefinition | readonly AgentDefinition[];
  /** The hosts' `maxPayloadBytes` (default: the protocol's 1 MiB). */
  readonly maxPayloadBytes?: number;
}

/** An agent named in a recording, with its recorded and current declared versions. */
export interface AgentVersionComparison {
  /** Registered name (`<parent>--<subagent>` for a subagent's agent). */
  readonly name: string;
  /** Version the recorded session adopted (undefined: none declared then). */
  readonly recorded: string | undefined;
  /** Version declared now (undefined: none declared, or the agent was not given). */
  readonly current: string | undefined;
  /** True when both are known and differ. */
  readonly changed: boolean;
}

/** What {@link replayHistory} found: the runtime's report plus the agents' versions. */
export interface AgentHistoryReplayReport extends HistoryReplayReport {
  /** Agents the recorded sessions adopted, by name (empty when none recorded a name). */
  readonly agentVersions: readonly AgentVersionComparison[];
}

/**
 * Replays a recorded history (`troupe history export`, the test kit's
 * `exportHistory`) offline with the agent machines of this release and reports
 * the first divergence: the actor, generation, message, path in the state,
 * expected vs got, and the effects each step requested (docs/decisions/0020). No servers:
 * pure, fast and deterministic — use it in any test runner to prove that a
 * changed machine (or a migration) still replays the conversations you
 * recorded.
 *
 * @param options - the history, extra or replacing kinds, the agents now.
 * @returns the report; `reproduces` is true when every actor replays.
 * @throws InvalidHistoryError when `history` is text that is not a history.
 * @example
 * const report = replayHistory({ history: readFileSync("fixtures/refund.json", "utf8") });
 * expect(report.reproduces, formatHistoryReplayReport(report)).toBe(true);
 */
export function replayHistory(options: ReplayHistoryOptions): AgentHistoryReplayReport {
  const history =
    typeof options.history === "string" ? parseHistory(options.history) : options.history;
  const kinds = new Map(agentMachineKinds().map((kind) => [kind.kind, kind]));
  for (const kind of options.kinds ?? []) kinds.set(kind.kind, kind);
  const report = replayRecordedHistory({
    kinds,
    history,
    ...(options.maxPayloadBytes === undefined ? {} : { maxPayloadBytes: options.maxPayloadBytes }),
  });
  return { ...report, agentVersions: compareAgentVersions(history, options.agent) };
}

/** One file of {@link replayHistories}: its report, or why it could not be read. */
export interface HistoryFileReplay {
  /** Path relative to the folder. */
  readonly file: string;
  readonly report: AgentHistoryReplayReport | undefined;
  /** Set when the file is not a readable history (`invalid_history`). */
  readonly error: InvalidHistoryError | undefined;
}

/** What {@link replayHistories} found. */
export interface HistoriesReplayReport {
  /** True when the folder holds at least one history file and every one was read and replays. */
  readonly reproduces: boolean;
  /** One entry per `.json` / `.ndjson` file, in path order. */
  readonly files: readonly HistoryFileReplay[];
}

/**
 * Replays every history file (`*.json`, `*.ndjson`) under a folder, its
 * subfolders included — a folder of recorded fixtures checked in CI
 * (docs/decisions/0020).
 *
 * @param dir - the folder.
 * @param options - as {@link replayHistory}, without `history`.
 * @returns one entry per file; a file that is not a history has `error` set
 *   and makes `reproduces` false, and so does a folder without any history
 *   file.
 * @throws the file system's error when `dir` cannot be read (e.g. `ENOENT`).
 */
export async function replayHistories(
  dir: string,
  options: Omit<ReplayHistoryOptions, "history"> = {},
): Promise<HistoriesReplayReport> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile() && /\.(nd)?json$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  const files: HistoryFileReplay[] = [];
  for (const path of paths) {
    const file = relative(dir, path);
    try {
      const history = parseHistory(await readFile(path, "utf8"));
      files.push({ file, report: replayHistory({ ...options, history }), error: undefined });
    } catch (error) {
      if (!InvalidHistoryError.isInstance(error)) throw error;
      files.push({ file, report: undefined, error });
    }
  }
  return {
    // A fixtures folder that holds no history is a mistake (a wrong path in a
    // CI test), not a success.
    reproduces: files.length > 0 && files.every((entry) => entry.report?.reproduces === true),
    files,
  };
}

function compareAgentVersions(
  history: TroupeHistory,
  given: AgentDefinition | readonly AgentDefinition[] | undefined,
): AgentVersionComparison[] {
  const recorded = new Map<string, string | undefined>();
  for (const actor of history.actors) {
    if (!actor.address.startsWith("session/")) continue;
    const state = actor.generations.at(-1)?.state as
      | { context?: { resolvedAgents?: readonly { name?: unknown; version?: unknown }[] } }
      | undefined;
    for (const resolved of state?.context?.resolvedAgents ?? []) {
      if (typeof resolved.name !== "string") continue;
      recorded.set(
        resolved.name,
        typeof resolved.version === "string" ? resolved.version : undefined,
      );
    }
  }
  const agents: readonly AgentDefinition[] =
    given === undefined ? [] : Array.isArray(given) ? given : [given as AgentDefinition];
  const current = new Map(historyAgentsOf(agents).map((agent) => [agent.name, agent.version]));
  return [...recorded].map(([name, version]) => {
    const now = current.get(name);
    return {
      name,
      recorded: version,
      current: now,
      changed: version !== undefined && now !== undefined && version !== now,
    };
  });
}

/**
 * The agents a host serves as a history names them (`producer.agents`): each
 * agent, then each of its subagents' agents under the name a
 * host registers it (`<parent>--<subagent>`), with the declared version when
 * there is one.
 *
 * @param agents - the agents the hosts serve.
 * @returns `[{ name, version? }]`, in that order.
 */
export function historyAgentsOf(agents: readonly AgentDefinition[]): HistoryAgent[] {
  const named = (name: string, version: string | undefined): HistoryAgent =>
    version === undefined ? { name } : { name, version };
  return agents.flatMap((agent) => [
    named(agent.name, agent.version),
    ...Object.entries(agent.subagents).map(([name, subagent]) =>
      named(subagentAgentName(agent.name, name), subagent.agent.version),
    ),
  ]);
}
