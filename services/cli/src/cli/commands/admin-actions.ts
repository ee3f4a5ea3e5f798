import { mkdir, writeFile } from "node:fs/promises";
import pc from "picocolors";
import { dirname } from "node:path";
import { agentKinds, historyAgentsOf, type AgentDefinition } from "@troupe/agents";
import { formatHistory, streamNames, type HistoryFileFormat } from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { JetStreamTranscriptReader, RedisAgentDefinitionStore } from "@troupe/agents/internal";
import type { AdminDeps, ClusterStatus } from "@troupe/admin/internal";
import {
  exportHistoryCommand,
  describeExport,
  clusterStatus,
  formatActorInspection,
  formatClusterStatus,
  formatDeadLetters,
  listDeadLetters,
  formatReplayReport,
  inspectActor,
  replayActorCommand,
  writeHistoryCassette,
} from "@troupe/admin/internal";
import type { DevState, AgentModuleContext, ConnectionFlags } from "@troupe/host/internal";
import { DEMO_AGENT_MODULE, loadAgentModule } from "@troupe/host/internal";
import { cliVersion } from "../init/project-template.js";
import { withAdmin, type AdminConnection } from "../with-admin.js";

/** Flags of the admin commands. */
export interface JsonOptions extends ConnectionFlags {
  readonly json?: boolean;
}

function print(options: JsonOptions, data: unknown, text: string): void {
  process.stdout.write(options.json === true ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

/**
 * `troupe inspect <kind>/<id>`: prints {@link inspectActor}'s view; exit code 1
 * when the actor does not exist.
 *
 * @throws InvalidAddressError for a malformed address; NatsUnreachableError /
 *   RedisUnreachableError naming the URL.
 */
export async function inspectAction(address: string, options: JsonOptions): Promise<void> {
  await withAdmin(options, async (admin) => {
    const inspection = await inspectActor(adminDeps(admin), address);
    print(options, inspection, formatActorInspection(inspection));
    if (!inspection.exists) {
      // The exit code alone does not say why (a fresh user's report).
      if (options.json !== true) {
        process.stderr.write(
          `${pc.red("error:")} ${address} has no stored snapshot (never created, or its keys are gone)\n`,
        );
      }
      process.exitCode = 1;
    }
  });
}

/**
 * Adds each host's metrics URL that a running `troupe dev` recorded in its
 * state file (docs/decisions/0038): host ids are unique per process, so matching by id
 * never names another deployment's host.
 */
function withDevMetricsUrls(report: ClusterStatus, dev: DevState | undefined): ClusterStatus {
  const urls = new Map(
    (dev?.hosts ?? []).flatMap((host) =>
      host.metricsUrl === undefined ? [] : [[host.hostId, host.metricsUrl] as const],
    ),
  );
  if (urls.size === 0) return report;
  return {
    ...report,
    hosts: report.hosts.map((host) => {
      const metricsUrl = urls.get(host.hostId);
      return metricsUrl === undefined ? host : { ...host, metricsUrl };
    }),
  };
}

/**
 * `troupe status`: prints {@link clusterStatus}'s view.
 *
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL.
 */
export async function statusAction(options: JsonOptions): Promise<void> {
  await withAdmin(options, async (admin) => {
    const report = withDevMetricsUrls(await clusterStatus(adminDeps(admin)), admin.settings.dev);
    print(options, report, formatClusterStatus(report));
  });
}

/**
 * `troupe deadletters [--limit n] [--since <duration|time>]`: prints
 * {@link listDeadLetters}'s view, newest first (publishes that
 * matched no route show here with code `unroutable_subject`; with
 * `--since`, the published subject and the body's start).
 *
 * @param options - flags; `since` is already a time, Unix ms (`parseSince`).
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL.
 */
export async function deadLettersAction(
  options: JsonOptions & { limit: number; since?: number },
): Promise<void> {
  const sinceMs = options.since;
  await withAdmin(options, async (admin) => {
    const letters = await listDeadLetters({
      jsm: admin.jsm,
      prefix: admin.settings.prefix,
      limit: options.limit,
      ...(sinceMs === undefined ? {} : { sinceMs }),
    });
    print(options, letters, formatDeadLetters(letters));
  });
}

/**
 * `troupe replay <kind>/<id>`: replays the journal with the agents the hosts
 * serve; exit code 1 when it does not reproduce the snapshot or there is
 * nothing to compare.
 *
 * @throws InvalidAddressError for a malformed address or unknown kind;
 *   AgentModuleError for a bad module.
 */
export async function replayAction(
  address: string,
  options: JsonOptions & { agent?: string },
): Promise<void> {
  await withAdmin(options, async (admin) => {
    const agents = await servedAgents(admin, options.agent);
    const report = await replayActorCommand(
      { ...adminDeps(admin), nats: admin.nats, kinds: agentKinds({ agents }) },
      address,
    );
    // `compared: false`: no stored snapshot and no journal, so `reproduces` says nothing.
    const compared = report.storedGeneration !== undefined || report.messagesReplayed > 0;
    print(options, { ...report, compared }, formatReplayReport(report));
    // No stored snapshot and no journal: nothing was compared, say so by the exit code.
    if (!report.reproduces || !compared) process.exitCode = 1;
  });
}

/** What the admin reads need of the connection: Redis, JetStream manager, prefix and shard count. */
function adminDeps(admin: AdminConnection): AdminDeps {
  return {
    redis: admin.redis,
    jsm: admin.jsm,
    prefix: admin.settings.prefix,
    shardCount: admin.shardCount,
    earlierShardCounts: admin.earlierShardCounts,
  };
}

/** The agents the hosts serve: `--agent`, else the running `troupe dev`'s module, else the demo agent. */
export async function servedAgents(
  admin: AdminConnection,
  agentModule: string | undefined,
): Promise<AgentDefinition[]> {
  const context: AgentModuleContext = {
    redis: admin.redis,
    natsUrl: admin.settings.natsUrl,
    redisUrl: admin.settings.redisUrl,
    log: () => undefined,
  };
  return await loadAgentModule(
    agentModule ?? admin.settings.dev?.agentModule ?? DEMO_AGENT_MODULE,
    context,
  );
}

/** Flags of `troupe history export`. */
export interface HistoryExportOptions extends ConnectionFlags {
  readonly agent?: string;
  readonly tree?: boolean;
  readonly output?: string;
  readonly format: HistoryFileFormat;
  /** Also write a model cassette of the conversation here (implies `tree`). */
  readonly cassette?: string;
}

/**
 * `troupe history export <kind>/<id> [--tree] [-o file] [--format json|ndjson] [--cassette file]`:
 * writes the recorded history ({@link exportHistoryCommand}) to `--output`, or
 * to stdout; with `--output`, one line on stderr says what was written (docs/decisions/0021).
 * `--cassette` also writes a model cassette of the conversation (the test kit's
 * `writeHistoryCassette`, rendered with the served agents against the
 * deployment's transcripts and definition records) and says so on stderr.
 *
 * @throws InvalidAddressError for a malformed address or unknown kind;
 *   ActorNotFoundError when the actor has no stored snapshot;
 *   HistoryNotReproducibleError when a journal does not reproduce (nothing is
 *   written); AgentModuleError for a bad module.
 */
export async function historyExportAction(
  address: string,
  options: HistoryExportOptions,
): Promise<void> {
  await withAdmin(options, async (admin) => {
    const agents = await servedAgents(admin, options.agent);
    const history = await exportHistoryCommand(
      {
        ...adminDeps(admin),
        nats: admin.nats,
        kinds: agentKinds({ agents }),
        tree: options.tree === true || options.cassette !== undefined,
        troupeVersion: cliVersion(),
        agents: historyAgentsOf(agents),
      },
      address,
    );
    const text = formatHistory(history, options.format);
    if (options.output === undefined) {
      process.stdout.write(text);
    } else {
      // `-o fixtures/x.json` in a project without `fixtures/` yet makes it.
      await mkdir(dirname(options.output), { recursive: true });
      await writeFile(options.output, text, "utf8");
      process.stderr.write(`${describeExport(history, options.output, Buffer.byteLength(text))}\n`);
    }
    if (options.cassette !== undefined) {
      const prefix = admin.settings.prefix;
      const report = await writeHistoryCassette(history, {
        file: options.cassette,
        agents,
        transcript: new JetStreamTranscriptReader(
          admin.jsm.jetstream(),
          streamNames(prefix).transcript,
        ),
        definitions: new RedisAgentDefinitionStore(
          admin.redis,
          new RedisKeys(prefix, admin.shardCount),
        ),
      });
      const left =
        report.skipped.length === 0
          ? ""
          : ` (${report.skipped.length} left out: cancelled or unreadable)`;
      process.stderr.write(
        `wrote a model cassette of ${report.calls} model request${report.calls === 1 ? "" : "s"} to ${report.file}${left}\n`,
      );
    }
  });
}
