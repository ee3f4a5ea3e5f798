import { Command } from "commander";
import { connectionOptions } from "@troupe/host/internal";

/**
 * `troupe migrate redis-keys`: moves a stopped deployment's Redis keys to the
 * hash-tagged layout (a shard's keys under one hash tag), which hosts of this
 * version require (`RedisKeyLayoutError`, decision 0031).
 */
export function migrateCommand(): Command {
  const redisKeys = connectionOptions(new Command("redis-keys"))
    .description(
      "move the deployment's Redis keys to the hash-tagged layout (stop every host first)",
    )
    .action(async (options: { nats?: string; redis?: string; prefix?: string }) => {
      const [{ withAdmin }, { migrateRedisKeyLayout }] = await Promise.all([
        import("../with-admin.js"),
        import("@troupe/runtime"),
      ]);
      await withAdmin(options, async ({ redis, settings, shardCount }) => {
        const moved = await migrateRedisKeyLayout(redis, settings.prefix, shardCount);
        process.stdout.write(
          `moved ${moved.shardKeys} shard keys and ${moved.actorKeys} actor keys of deployment ` +
            `"${settings.prefix}" (${shardCount} shards) to key layout 2; dropped ${moved.leasesDropped} stale leases\n`,
        );
      });
    });
  return new Command("migrate")
    .description("move a deployment's stored data to the layout this version reads")
    .addCommand(redisKeys);
}
