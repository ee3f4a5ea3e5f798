/**
 * Prefix of a deployment's Redis keys and JetStream stream names when none is
 * configured (streams `TROUPE_INBOX`, …; keys `troupe:lease:<shard>`, …).
 */
export const DEFAULT_DEPLOYMENT_PREFIX = "troupe";

/**
 * Inbox shards of a deployment when none is configured: the hosts' default and
 * the count `infra/nats-server.conf` maps `troupe.*.*.in` onto.
 */
export const DEFAULT_SHARD_COUNT = 64;
