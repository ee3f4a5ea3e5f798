import { access } from "node:fs/promises";
import { redactUrl, resolveDeployment, type DevState } from "@troupe/client";
import { devStatePath } from "./dev-state.js";
import { readConnectionConfig } from "../connection/connection-config.js";
import { ConnectionConfigError } from "../connection/connection-config-error.js";
import {
  environmentLayer,
  flagsLayer,
  mergeConnectionLayers,
  type ConnectionFlags,
  type ConnectionLayer,
} from "../connection/connection-layers.js";
import type { RedisSettings } from "../connection/redis-settings.js";
import type { NatsClientSettings } from "../connection/nats-client-settings.js";

export type { ConnectionFlags } from "../connection/connection-layers.js";
export type { NatsClientSettings } from "../connection/nats-client-settings.js";

/** Default Redis URL when nothing else is given. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** Where a connection setting came from, for messages. */
export type SettingSource = "flag" | "environment" | "config file" | "troupe dev" | "default";

/** The servers a `troupe` command talks to. */
export interface ConnectionSettings {
  /** The NATS seed URLs, comma-separated (may hold userinfo: print with `redactUrl`). */
  readonly natsUrl: string;
  /**
   * The Redis URL for a standalone server; for Cluster the first node's, for
   * Sentinel a `redis://` URL naming the first sentinel (for agent modules that
   * only take a URL). May hold a password: print with `redactUrl`.
   */
  readonly redisUrl: string;
  /**
   * NATS URLs, credentials and TLS, for every NATS connection the command opens
   * (docs/decisions/0033).
   */
  readonly nats: NatsClientSettings;
  /**
   * Redis endpoint (standalone, cluster, sentinel), ACL user, password and TLS
   * (docs/decisions/0033).
   */
  readonly redis: RedisSettings;
  /** Deployment prefix (Redis keys, stream names); default `"troupe"`. */
  readonly prefix: string;
  /** Where `natsUrl` came from. */
  readonly source: SettingSource;
  /** Something the user should know about the choice (printed on stderr by the CLI). */
  readonly note?: string;
  /** The running `troupe dev`, when there is one (whatever the URLs came from). */
  readonly dev?: DevState;
}

/**
 * Finds the servers for a command (docs/decisions/0033). Each field, first that is set:
 *
 * 1. flags (`--nats`, `--redis`, `--redis-cluster`, `--nats-creds`, …);
 * 2. environment (`TROUPE_NATS_URL`, `TROUPE_NATS_PASSWORD`, `TROUPE_REDIS_URL`, …);
 * 3. the config file (`--config <file>`, else `TROUPE_CONFIG`; YAML or JSON,
 *    see `connectionConfigSchema`);
 * 4. the running `troupe dev` (its state file), for URLs and prefix;
 * 5. defaults: `nats://127.0.0.1:4222`, `redis://127.0.0.1:6379`, prefix `troupe`.
 *
 * The Redis endpoint (URL, cluster nodes or sentinels) comes whole from the
 * first source naming one. Every file path given (creds, NKey seed, TLS) must
 * be readable.
 *
 * @param flags - the command's connection flags.
 * @param environment - where variables are read; default `process.env`.
 * @returns URLs, credentials, TLS, prefix and where the NATS URL came from.
 * @throws {@link ConnectionConfigError} (`invalid_options`) for a bad config
 *   file, an unreadable file path, or contradicting Redis modes.
 */
export async function resolveConnection(
  flags: ConnectionFlags,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<ConnectionSettings> {
  const configPath = flags.config ?? nonEmpty(environment["TROUPE_CONFIG"]);
  const layers: ConnectionLayer[] = [flagsLayer(flags), environmentLayer(environment)];
  if (configPath !== undefined) {
    layers.push({ source: "config file", config: await readConnectionConfig(configPath) });
  }
  const merged = mergeConnectionLayers(layers);
  const found = await resolveDeployment(
    {
      ...(merged.natsUrls === undefined ? {} : { natsUrl: merged.natsUrls.urls }),
      ...(merged.prefix === undefined ? {} : { prefix: merged.prefix }),
    },
    environment,
  );
  const { dev, staleDev } = found;
  const endpoint = merged.redisEndpoint?.endpoint ?? {
    mode: "standalone" as const,
    url: dev?.redisUrl ?? DEFAULT_REDIS_URL,
  };
  const redis: RedisSettings = {
    ...endpoint,
    ...(merged.redisUsername === undefined ? {} : { username: merged.redisUsername }),
    ...(merged.redisPassword === undefined ? {} : { password: merged.redisPassword }),
    ...(merged.redisTls === undefined ? {} : { tls: merged.redisTls }),
  };
  const natsUrl = found.natsUrls.join(",");
  const nats: NatsClientSettings = {
    natsUrl,
    ...(merged.natsCredentials === undefined ? {} : { credentials: merged.natsCredentials }),
    ...(merged.natsTls === undefined ? {} : { tls: merged.natsTls }),
  };
  await assertReadable(nats, redis);
  const source: SettingSource =
    merged.natsUrls?.source ?? (found.source === "option" ? "flag" : found.source);
  return {
    natsUrl,
    redisUrl: redisUrlOf(redis),
    nats,
    redis,
    prefix: found.prefix,
    source,
    ...(dev === undefined ? {} : { dev }),
    ...(staleDev === undefined || found.source !== "default"
      ? {}
      : {
          note:
            `the troupe dev recorded in ${devStatePath()} (pid ${staleDev.pid}, ${staleDev.natsUrl}) ` +
            `is gone; using ${redactUrl(natsUrl)}`,
        }),
  };
}

/** One URL standing for the Redis settings (see `ConnectionSettings.redisUrl`). */
function redisUrlOf(redis: RedisSettings): string {
  switch (redis.mode) {
    case "standalone":
      return redis.url;
    case "cluster":
      return redis.nodes[0] ?? DEFAULT_REDIS_URL;
    case "sentinel":
      return `redis://${redis.sentinels[0] ?? "127.0.0.1:26379"}`;
  }
}

/** Every file path of the settings can be read, else a typed error naming it. */
async function assertReadable(nats: NatsClientSettings, redis: RedisSettings): Promise<void> {
  const files: [string, string | undefined][] = [
    ["NATS creds file", nats.credentials?.credsFile],
    ["NATS NKey seed file", nats.credentials?.nkeySeedFile],
    ["NATS TLS CA file", nats.tls?.caFile],
    ["NATS TLS certificate file", nats.tls?.certFile],
    ["NATS TLS key file", nats.tls?.keyFile],
    ["Redis TLS CA file", redis.tls?.caFile],
    ["Redis TLS certificate file", redis.tls?.certFile],
    ["Redis TLS key file", redis.tls?.keyFile],
  ];
  for (const [what, path] of files) {
    if (path === undefined) continue;
    await access(path).catch((error: unknown) => {
      throw new ConnectionConfigError(
        what,
        `cannot read ${path} (${(error as Error).message})`,
        error,
      );
    });
  }
  for (const [what, tls] of [
    ["NATS TLS", nats.tls],
    ["Redis TLS", redis.tls],
  ] as const) {
    if ((tls?.certFile === undefined) !== (tls?.keyFile === undefined)) {
      throw new ConnectionConfigError(
        what,
        "a client certificate needs both its cert and key file",
      );
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
