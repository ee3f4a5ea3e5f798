import { agentKinds } from "@troupe/actors";
import { Command } from "commander";
import { clusterStatus } from "../../admin/cluster-status.js";
import { formatActorInspection } from "../../admin/format-actor-inspection.js";
import { formatClusterStatus } from "../../admin/format-cluster-status.js";
import { formatReplayReport } from "../../admin/format-replay-report.js";
import { inspectActor } from "../../admin/inspect-actor.js";
import { replayActorCommand } from "../../admin/replay-actor-command.js";
import { demoAgents } from "../../demo/demo-agents.js";
import { loadAgents, type AgentModuleContext } from "../../host/load-agents.js";
import { connectionOptions } from "../connection-options.js";
import type { ConnectionFlags } from "../connection-settings.js";
import { readDevState } from "../../dev/dev-state.js";
import { withAdmin } from "../with-admin.js";

interface JsonOptions extends ConnectionFlags {
  readonly json?: boolean;
}

function print(options: JsonOptions, data: unknown, text: string): void {
  process.stdout.write(options.json === true ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

/**
 * `troupe inspect`, `troupe status` and `troupe replay`: read-only views of a
 * deployment (Redis snapshots, leases and timers; JetStream consumers and
 * journal). See `services/src/admin/README.md` for what each reads.
 */
export function adminCommands(): Command[] {
  const inspect = connectionOptions(new Command("inspect"))
    .description("show an actor: snapshot generations, state, pending effects and timers, lease")
    .argument("<actor>", "actor address kind/id, e.g. session/demo-1 or run/demo-1")
    .option("--json", "print the inspection as JSON")
    .action(async (address: string, options: JsonOptions) => {
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
    });
  const status = connectionOptions(new Command("status"))
    .description("show hosts, shard ownership and inbox lag of the deployment")
    .option("--json", "print the status as JSON")
    .action(async (options: JsonOptions) => {
      await withAdmin(options, async (admin) => {
        const report = await clusterStatus({
          redis: admin.redis,
          jsm: admin.jsm,
          prefix: admin.settings.prefix,
          shardCount: admin.shardCount,
        });
        print(options, report, formatClusterStatus(report));
      });
    });
  const replay = connectionOptions(new Command("replay"))
    .description("replay an actor's journal and say whether it reproduces the stored snapshot")
    .argument("<actor>", "actor address kind/id, e.g. session/demo-1")
    .option(
      "--agent <module>",
      "agent module the hosts serve (default: the running troupe dev's, else the demo agent)",
    )
    .option("--json", "print the report as JSON")
    .action(async (address: string, options: JsonOptions & { agent?: string }) => {
      const agentModule = options.agent ?? (await readDevState())?.agentModule ?? "demo";
      await withAdmin(options, async (admin) => {
        const context: AgentModuleContext = {
          redis: admin.redis,
          natsUrl: admin.settings.natsUrl,
          redisUrl: admin.settings.redisUrl,
          log: () => undefined,
        };
        const agents =
          agentModule === "demo" ? demoAgents(context) : await loadAgents(agentModule, context);
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
        print(options, report, formatReplayReport(report));
        // No stored snapshot and no journal: nothing was compared, say so by the exit code.
        if (!report.reproduces || report.storedGeneration === undefined) process.exitCode = 1;
      });
    });
  return [inspect, status, replay];
}
