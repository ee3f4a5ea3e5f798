import { readFile, stat } from "node:fs/promises";
import {
  formatHistoryReplayReport,
  replayHistories,
  replayHistory,
  type AgentDefinition,
  type AgentHistoryReplayReport,
  type HistoriesReplayReport,
} from "@troupe/agents";
import { Redis } from "ioredis";
import { loadAgentModule } from "@troupe/host/internal";

/** Flags of `troupe history replay`. */
export interface HistoryReplayOptions {
  /** Agent module whose declared versions are compared with the recorded ones. */
  readonly agent?: string;
  readonly json?: boolean;
}

/**
 * `troupe history replay <file-or-dir> [--agent <module>] [--json]`: replays a
 * recorded history (or every `*.json` / `*.ndjson` under a folder) offline with
 * this release's agent machines (`replayHistory` / `replayHistories` from
 * `@troupe/agents`) and prints a report — on a divergence the
 * actor, generation, message, path, expected and got. Exit code 1 when a
 * history does not replay or a file is not a history. No servers.
 *
 * @param path - a history file or a folder of them.
 * @param options - `--agent`: compare the module's declared agent versions
 *   with the recorded ones (informative); `--json`: the report as JSON.
 * @throws the file system's error when `path` cannot be read; InvalidHistoryError
 *   when a single file is not a history; AgentModuleError for a bad module.
 */
export async function historyReplayAction(
  path: string,
  options: HistoryReplayOptions,
): Promise<void> {
  const agents = options.agent === undefined ? undefined : await agentsOf(options.agent);
  const common = agents === undefined ? {} : { agent: agents };
  const isFolder = (
    await stat(path).catch((error: unknown) => {
      throw (error as NodeJS.ErrnoException).code === "ENOENT"
        ? new Error(`no history file or folder at ${path}`)
        : error;
    })
  ).isDirectory();
  if (!isFolder) {
    const report = replayHistory({ ...common, history: await readFile(path, "utf8") });
    process.stdout.write(
      options.json === true
        ? `${JSON.stringify(jsonOfReport(report), null, 2)}\n`
        : `${formatAgentReplay(report)}\n`,
    );
    if (!report.reproduces) process.exitCode = 1;
    return;
  }
  const reports = await replayHistories(path, common);
  process.stdout.write(
    options.json === true
      ? `${JSON.stringify(jsonOfFolder(reports), null, 2)}\n`
      : `${formatFolderReplay(path, reports)}\n`,
  );
  if (!reports.reproduces) process.exitCode = 1;
}

/**
 * A folder's replay as text: one block per file (its report, or why it is not
 * a history), then a summary line.
 *
 * @param dir - the folder, as given.
 * @param reports - from `replayHistories`.
 */
export function formatFolderReplay(dir: string, reports: HistoriesReplayReport): string {
  const blocks = reports.files.map((entry) =>
    entry.report === undefined
      ? `✗ ${entry.file}: not a history: ${entry.error?.message ?? "unreadable"}`
      : `${entry.report.reproduces ? "✓" : "✗"} ${entry.file}\n${indent(formatAgentReplay(entry.report))}`,
  );
  const failing = reports.files.filter((entry) => entry.report?.reproduces !== true).length;
  const summary =
    reports.files.length === 0
      ? `no history files (*.json, *.ndjson) under ${dir}: nothing replayed`
      : failing === 0
        ? `${reports.files.length} history file(s) under ${dir} replay`
        : `${failing} of ${reports.files.length} history file(s) under ${dir} do NOT replay`;
  return [...blocks, summary].join("\n");
}

/**
 * One history's replay as text: the runtime's report, then each agent whose
 * declared version changed since the recording.
 *
 * @param report - from `replayHistory`.
 */
export function formatAgentReplay(report: AgentHistoryReplayReport): string {
  const changed = report.agentVersions
    .filter((agent) => agent.changed)
    .map(
      (agent) =>
        `  agent ${agent.name}: recorded version ${agent.recorded ?? "(none)"}, now ${agent.current ?? "(none)"}`,
    );
  return [formatHistoryReplayReport(report), ...changed].join("\n");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function jsonOfReport(report: AgentHistoryReplayReport): unknown {
  return {
    root: report.root,
    reproduces: report.reproduces,
    actors: report.actors.map((actor) => ({
      actor: actor.actor,
      reproduces: actor.reproduces,
      recordedVersions: actor.recordedVersions,
      replayedVersion: actor.replayedVersion ?? null,
      migrated: actor.migrated,
      messages: actor.steps.length,
    })),
    divergence: report.divergence ?? null,
    agentVersions: report.agentVersions,
  };
}

function jsonOfFolder(reports: HistoriesReplayReport): unknown {
  return {
    reproduces: reports.reproduces,
    files: reports.files.map((entry) => ({
      file: entry.file,
      ...(entry.report === undefined
        ? { error: { code: entry.error?.code ?? "invalid_history", message: entry.error?.message } }
        : { report: jsonOfReport(entry.report) }),
    })),
  };
}

/**
 * The agents of a module, loaded only to read their declared versions: an
 * agent factory is given a Redis client that never connects (a replay runs no
 * tool).
 */
async function agentsOf(specifier: string): Promise<AgentDefinition[]> {
  const redis = new Redis({ lazyConnect: true });
  try {
    return await loadAgentModule(specifier, {
      redis,
      natsUrl: "nats://127.0.0.1:4222",
      redisUrl: "redis://127.0.0.1:6379",
      log: () => undefined,
    });
  } finally {
    redis.disconnect();
  }
}
