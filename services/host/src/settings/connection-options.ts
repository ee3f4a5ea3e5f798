import { Option, type Command } from "commander";

/**
 * Adds the connection options every command shares (docs/decisions/0033): servers
 * (`--nats`, `--redis`, `--redis-cluster`, `--redis-sentinels` +
 * `--redis-master`), credentials given as files or user names (`--nats-user`,
 * `--nats-creds`, `--nats-nkey`, `--redis-user`), TLS files, `--prefix` and
 * `--config <file>`. Secrets (passwords, tokens) have no flag: give them by
 * `TROUPE_NATS_PASSWORD`, `TROUPE_NATS_TOKEN`, `TROUPE_REDIS_PASSWORD`, … or
 * the config file. Precedence, field by field: flags, environment, config
 * file, the running `troupe dev`, the default local ports (see
 * `resolveConnection`).
 *
 * @param command - the command to extend.
 * @returns the same command.
 */
export function connectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--nats <urls>",
        "NATS server URL(s), comma-separated (default: TROUPE_NATS_URL, config, troupe dev, nats://127.0.0.1:4222)",
      ),
    )
    .addOption(
      new Option(
        "--redis <url>",
        "Redis URL, redis:// or rediss:// (default: TROUPE_REDIS_URL, config, troupe dev, redis://127.0.0.1:6379)",
      ),
    )
    .addOption(
      new Option("--prefix <name>", "deployment prefix (default: troupe)").env("TROUPE_PREFIX"),
    )
    .addOption(
      new Option(
        "--config <file>",
        "connection config file, YAML or JSON (default: TROUPE_CONFIG)",
      ),
    )
    .addOption(new Option("--nats-user <name>", "NATS user (password: TROUPE_NATS_PASSWORD)"))
    .addOption(new Option("--nats-creds <file>", "NATS credentials (.creds) file"))
    .addOption(new Option("--nats-nkey <file>", "file holding a NATS user NKey seed"))
    .addOption(new Option("--nats-tls-ca <file>", "CA file (PEM) for NATS TLS"))
    .addOption(new Option("--nats-tls-cert <file>", "client certificate (PEM) for NATS TLS"))
    .addOption(new Option("--nats-tls-key <file>", "client key (PEM) for NATS TLS"))
    .addOption(
      new Option("--redis-cluster <urls>", "Redis Cluster seed node URLs, comma-separated"),
    )
    .addOption(
      new Option(
        "--redis-sentinels <addresses>",
        "Redis Sentinel host:port list (with --redis-master)",
      ),
    )
    .addOption(new Option("--redis-master <name>", "master name for Redis Sentinel"))
    .addOption(
      new Option("--redis-user <name>", "Redis ACL user (password: TROUPE_REDIS_PASSWORD)"),
    )
    .addOption(new Option("--redis-tls-ca <file>", "CA file (PEM) for Redis TLS"))
    .addOption(new Option("--redis-tls-cert <file>", "client certificate (PEM) for Redis TLS"))
    .addOption(new Option("--redis-tls-key <file>", "client key (PEM) for Redis TLS"));
}
