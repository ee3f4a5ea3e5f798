import { agentKinds } from "@troupe/agents";
import { clusterStatus } from "../../admin/cluster-status.js";
import { formatActorInspection } from "../../admin/format-actor-inspection.js";
import { formatClusterStatus } from "../../admin/format-cluster-status.js";
import { formatDeadLetters } from "../../admin/format-dead-letters.js";
import { listDeadLetters } from "../../admin/list-dead-letters.js";
import { formatReplayReport } from "../../admin/format-replay-report.js";
import { inspectActor } from "../../admin/inspect-actor.js";
import { replayActorCommand } from "../../admin/replay-actor-command.js";
import {
  DEMO_AGENT_MODULE,
  loadAgentModule,
  type AgentModuleContext,
} from "../../host/load-agents.js";
import type { ConnectionFlags } from "../connection-settings.js";
import { withAdmin } from "../with-admin.js";

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
    const inspection = await inspectActor(
      {
        redis: admin.redis,
        jsm: admin.jsm,
        prefix: admin.settings.prefix,
        shardCount: admin.shardCount,
      },
      address,
    );
    print(options, inspection, formatActorInspection(inspection));
    if (!inspection.exists) process.exitCode = 1;
  });
}

/**
 * `troupe status`: prints {@link clusterStatus}'s view.
 *
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL.
 */
export async function statusAction(options: JsonOptions): Promise<void> {
  await withAdmin(options, async (admin) => {
    const report = await clusterStatus({
      redis: admin.redis,
      jsm: admin.jsm,
      prefix: admin.settings.prefix,
      shardCount: admin.shardCount,
    });
    print(options, report, formatClusterStatus(report));
  });
}

/**
 * `troupe deadletters [--limit n] [--since <duration|time>]`: prints
 * {@link listDeadLetters}'s view, newest first (issue #11: publishes that
 * matched no route show here with code `unroutable_subject`; issue #13:
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
    const agentModule = options.agent ?? admin.settings.dev?.agentModule ?? DEMO_AGENT_MODULE;
    const context: AgentModuleContext = {
      redis: admin.redis,
      natsUrl: admin.settings.natsUrl,
      redisUrl: admin.settings.redisUrl,
      log: () => undefined,
    };
    const agents = await loadAgentModule(agentModule, context);
    const report = await replayActorCommand(
      {
        redis: admin.redis,
        jsm: admin.jsm,
        nats: admin.nats,
        prefix: admin.settings.prefix,
        shardCount: admin.shardCount,
        kinds: agentKinds({ agents }),
      },
      address,
    );
    // `compared: false`: no stored snapshot and no journal, so `reproduces` says nothing.
    const compared = report.storedGeneration !== undefined || report.messagesReplayed > 0;
    print(options, { ...report, compared }, formatReplayReport(report));
    // No stored snapshot and no journal: nothing was compared, say so by the exit code.
    if (!report.reproduces || !compared) process.exitCode = 1;
  });
}
