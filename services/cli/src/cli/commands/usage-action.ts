import { SpendReport } from "@troupe/agents";
import { RedisKeys } from "@troupe/protocol/internal";
import { formatSpendUsage, type SpendUsageReport } from "@troupe/admin/internal";
import { withAdmin } from "../with-admin.js";
import type { JsonOptions } from "./admin-actions.js";

/** Flags of `troupe usage`. */
export interface UsageOptions extends JsonOptions {
  readonly session?: string;
  readonly tree?: string;
  readonly agent?: string;
  readonly day?: string;
}

/**
 * Reads and prints `troupe usage` (see `usageCommand`).
 *
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL.
 */
export async function usageAction(options: UsageOptions): Promise<void> {
  await withAdmin(options, async (admin) => {
    const report = new SpendReport(
      admin.redis,
      new RedisKeys(admin.settings.prefix, admin.shardCount),
    );
    let usage: SpendUsageReport;
    if (options.agent !== undefined) {
      const day = options.day ?? new Date().toISOString().slice(0, 10);
      usage = {
        kind: "agent_day",
        agent: options.agent,
        day,
        budget: await report.budget("agent_day", `${options.agent}/${day}`),
      };
    } else if (options.tree !== undefined) {
      usage = { kind: "tree", tree: await report.tree(options.tree) };
    } else {
      const sessionId = options.session ?? "";
      usage = {
        kind: "session",
        session: await report.session(sessionId),
        tree: await report.tree(sessionId),
      };
    }
    process.stdout.write(
      options.json === true
        ? `${JSON.stringify(usage, null, 2)}\n`
        : `${formatSpendUsage(usage)}\n`,
    );
  });
}
