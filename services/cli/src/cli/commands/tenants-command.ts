import { Command, Option } from "commander";
import { DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { positiveInteger } from "@troupe/host/internal";

/**
 * `troupe tenants config`: writes the server-side isolation of several tenants
 * (decision 0033) — a nats-server `accounts` block (one account per
 * tenant, JetStream and the inbox mapping on, a host and a client user), Redis
 * ACL lines (one user per tenant, limited to its key prefix) and each tenant's
 * connection files, with fresh random passwords.
 */
export function tenantsCommand(): Command {
  const tenants = new Command("tenants").description(
    "multi-tenant deployments: one NATS account and one Redis ACL user per tenant",
  );
  tenants.addCommand(
    new Command("config")
      .description(
        "write nats-accounts.conf, redis-users.acl and <tenant>-host.yaml / <tenant>-client.yaml (mode 0600) into --out",
      )
      .addOption(
        new Option("--tenant <name>", "a tenant (repeat for several); also its deployment prefix")
          .argParser((value: string, previous: string[] | undefined) => [
            ...(previous ?? []),
            value,
          ])
          .makeOptionMandatory(),
      )
      .addOption(new Option("--out <dir>", "folder to write into").makeOptionMandatory())
      .addOption(
        new Option("--shards <count>", "shard count of every tenant's deployment")
          .default(DEFAULT_SHARD_COUNT)
          .argParser(positiveInteger),
      )
      .addOption(new Option("--nats-url <urls>", "NATS URL(s) for the connection files"))
      .addOption(
        new Option("--redis-url <url>", "Redis URL (no password) for the connection files"),
      )
      .action(
        async (options: {
          tenant: string[];
          out: string;
          shards: number;
          natsUrl?: string;
          redisUrl?: string;
        }) => {
          const { writeTenantsConfig } = await import("@troupe/admin/internal");
          const written = await writeTenantsConfig({
            tenants: options.tenant,
            outDir: options.out,
            shardCount: options.shards,
            ...(options.natsUrl === undefined ? {} : { natsUrl: options.natsUrl }),
            ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
          });
          process.stdout.write(`${written.join("\n")}\n`);
        },
      ),
  );
  return tenants;
}
