import type { TroupeClientCredentials, TroupeClientTls } from "@troupe/client";
import {
  defined,
  type ConnectionConfig,
  type NatsConfig,
  type RedisConfig,
  type TlsFiles,
} from "./connection-config.js";
import { ConnectionConfigError } from "./connection-config-error.js";
import type { RedisEndpoint } from "./redis-settings.js";

/**
 * The connection flags every `troupe` command accepts (commander's camelCase
 * names). Secrets (passwords, tokens) have no flag: give them by environment
 * variable or config file (or in a URL), so they do not show in `ps`.
 */
export interface ConnectionFlags {
  readonly config?: string | undefined;
  readonly nats?: string | undefined;
  readonly natsUser?: string | undefined;
  readonly natsCreds?: string | undefined;
  readonly natsNkey?: string | undefined;
  readonly natsTlsCa?: string | undefined;
  readonly natsTlsCert?: string | undefined;
  readonly natsTlsKey?: string | undefined;
  readonly redis?: string | undefined;
  readonly redisCluster?: string | undefined;
  readonly redisSentinels?: string | undefined;
  readonly redisMaster?: string | undefined;
  readonly redisUser?: string | undefined;
  readonly redisTlsCa?: string | undefined;
  readonly redisTlsCert?: string | undefined;
  readonly redisTlsKey?: string | undefined;
  readonly prefix?: string | undefined;
}

/** Where a layer of settings came from. */
export type LayerSource = "flag" | "environment" | "config file";

/** One source's settings, in the config file's shape. */
export interface ConnectionLayer {
  readonly source: LayerSource;
  readonly config: ConnectionConfig;
}

/** The settings of all sources merged, field by field (flags > environment > config file). */
export interface MergedConnection {
  readonly prefix?: string;
  readonly natsUrls?: { readonly urls: string[]; readonly source: LayerSource };
  readonly natsCredentials?: TroupeClientCredentials;
  readonly natsTls?: TroupeClientTls;
  readonly redisEndpoint?: { readonly endpoint: RedisEndpoint; readonly source: LayerSource };
  readonly redisUsername?: string;
  readonly redisPassword?: string;
  readonly redisTls?: TlsFiles;
}

/**
 * The flags as a layer.
 *
 * @throws {@link ConnectionConfigError} for `--redis-sentinels` without `--redis-master` (or the reverse).
 */
export function flagsLayer(flags: ConnectionFlags): ConnectionLayer {
  const sentinel = sentinelOf(flags.redisSentinels, flags.redisMaster, undefined, [
    "--redis-sentinels",
    "--redis-master",
  ]);
  return {
    source: "flag",
    config: defined<ConnectionConfig>({
      prefix: flags.prefix,
      nats: defined<NatsConfig>({
        urls: flags.nats,
        user: flags.natsUser,
        credsFile: flags.natsCreds,
        nkeySeedFile: flags.natsNkey,
        tls: tlsOf(flags.natsTlsCa, flags.natsTlsCert, flags.natsTlsKey),
      }),
      redis: defined<RedisConfig>({
        url: flags.redis,
        cluster: flags.redisCluster,
        sentinel,
        username: flags.redisUser,
        tls: tlsOf(flags.redisTlsCa, flags.redisTlsCert, flags.redisTlsKey),
      }),
    }),
  };
}

/**
 * The `TROUPE_NATS_*` / `TROUPE_REDIS_*` variables as a layer (docs/decisions/0033).
 * Empty values count as unset.
 *
 * @throws {@link ConnectionConfigError} for a sentinel list without a master name (or the reverse).
 */
export function environmentLayer(environment: NodeJS.ProcessEnv): ConnectionLayer {
  const variable = (name: string) => {
    const value = environment[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const sentinel = sentinelOf(
    variable("TROUPE_REDIS_SENTINELS"),
    variable("TROUPE_REDIS_SENTINEL_MASTER"),
    variable("TROUPE_REDIS_SENTINEL_PASSWORD"),
    ["TROUPE_REDIS_SENTINELS", "TROUPE_REDIS_SENTINEL_MASTER"],
  );
  return {
    source: "environment",
    config: defined<ConnectionConfig>({
      nats: defined<NatsConfig>({
        urls: variable("TROUPE_NATS_URL"),
        user: variable("TROUPE_NATS_USER"),
        password: variable("TROUPE_NATS_PASSWORD"),
        token: variable("TROUPE_NATS_TOKEN"),
        credsFile: variable("TROUPE_NATS_CREDS_FILE"),
        nkeySeedFile: variable("TROUPE_NATS_NKEY_SEED_FILE"),
        tls: tlsOf(
          variable("TROUPE_NATS_TLS_CA_FILE"),
          variable("TROUPE_NATS_TLS_CERT_FILE"),
          variable("TROUPE_NATS_TLS_KEY_FILE"),
        ),
      }),
      redis: defined<RedisConfig>({
        url: variable("TROUPE_REDIS_URL"),
        cluster: variable("TROUPE_REDIS_CLUSTER_NODES"),
        sentinel,
        username: variable("TROUPE_REDIS_USERNAME"),
        password: variable("TROUPE_REDIS_PASSWORD"),
        tls: tlsOf(
          variable("TROUPE_REDIS_TLS_CA_FILE"),
          variable("TROUPE_REDIS_TLS_CERT_FILE"),
          variable("TROUPE_REDIS_TLS_KEY_FILE"),
        ),
      }),
    }),
  };
}

/**
 * Merges layers, highest precedence first: each field comes from the first
 * layer that sets it; the Redis endpoint (URL, cluster or sentinel) comes whole
 * from the first layer that names one, so a flag's `--redis` replaces a config
 * file's `cluster`. Pure.
 *
 * @param layers - e.g. `[flags, environment, config file]`.
 * @returns the merged settings.
 * @throws {@link ConnectionConfigError} when one layer names two Redis modes.
 */
export function mergeConnectionLayers(layers: readonly ConnectionLayer[]): MergedConnection {
  const first = <T>(pick: (config: ConnectionConfig) => T | undefined) => {
    for (const layer of layers) {
      const value = pick(layer.config);
      if (value !== undefined) return { value, source: layer.source };
    }
    return undefined;
  };
  const field = <T>(pick: (config: ConnectionConfig) => T | undefined) => first(pick)?.value;
  const natsUrls = first((config) => config.nats?.urls);
  const redisEndpoint = first((config) => endpointOf(config.redis, config));
  const tls = (pick: (config: ConnectionConfig) => TlsFiles | undefined): TlsFiles | undefined => {
    const files = defined<TlsFiles>({
      caFile: field((config) => pick(config)?.caFile),
      certFile: field((config) => pick(config)?.certFile),
      keyFile: field((config) => pick(config)?.keyFile),
    });
    return Object.keys(files).length === 0 ? undefined : files;
  };
  const credentials = defined<TroupeClientCredentials>({
    user: field((config) => config.nats?.user),
    pass: field((config) => config.nats?.password),
    token: field((config) => config.nats?.token),
    credsFile: field((config) => config.nats?.credsFile),
    nkeySeedFile: field((config) => config.nats?.nkeySeedFile),
  });
  return defined<MergedConnection>({
    prefix: field((config) => config.prefix),
    natsUrls:
      natsUrls === undefined
        ? undefined
        : { urls: splitList(natsUrls.value), source: natsUrls.source },
    natsCredentials: Object.keys(credentials).length === 0 ? undefined : credentials,
    natsTls: tls((config) => config.nats?.tls),
    redisEndpoint:
      redisEndpoint === undefined
        ? undefined
        : { endpoint: redisEndpoint.value, source: redisEndpoint.source },
    redisUsername: field((config) => config.redis?.username),
    redisPassword: field((config) => config.redis?.password),
    redisTls: tls((config) => config.redis?.tls),
  });
}

/** A comma-separated string or an array, as a list of trimmed, non-empty items. */
export function splitList(value: string | readonly string[]): string[] {
  const items = typeof value === "string" ? value.split(",") : value;
  return items.map((item) => item.trim()).filter((item) => item !== "");
}

function endpointOf(
  redis: RedisConfig | undefined,
  _config: ConnectionConfig,
): RedisEndpoint | undefined {
  if (redis === undefined) return undefined;
  const modes = [redis.url, redis.cluster, redis.sentinel].filter((mode) => mode !== undefined);
  if (modes.length > 1) {
    throw new ConnectionConfigError(
      "Redis",
      "give one of a Redis URL, cluster nodes and sentinels (--redis, --redis-cluster, --redis-sentinels; " +
        "TROUPE_REDIS_URL, TROUPE_REDIS_CLUSTER_NODES, TROUPE_REDIS_SENTINELS; redis.url, redis.cluster, redis.sentinel)",
    );
  }
  if (redis.url !== undefined) return { mode: "standalone", url: redis.url };
  if (redis.cluster !== undefined) return { mode: "cluster", nodes: splitList(redis.cluster) };
  if (redis.sentinel !== undefined) {
    return defined<RedisEndpoint>({
      mode: "sentinel",
      sentinels: splitList(redis.sentinel.sentinels),
      masterName: redis.sentinel.masterName,
      sentinelPassword: redis.sentinel.password,
    });
  }
  return undefined;
}

function tlsOf(
  caFile: string | undefined,
  certFile: string | undefined,
  keyFile: string | undefined,
): TlsFiles | undefined {
  const files = defined<TlsFiles>({ caFile, certFile, keyFile });
  return Object.keys(files).length === 0 ? undefined : files;
}

function sentinelOf(
  sentinels: string | undefined,
  masterName: string | undefined,
  password: string | undefined,
  names: readonly [string, string],
): RedisConfig["sentinel"] {
  if (sentinels === undefined && masterName === undefined) return undefined;
  if (sentinels === undefined || masterName === undefined) {
    throw new ConnectionConfigError(
      sentinels === undefined ? names[1] : names[0],
      `Sentinel needs both ${names[0]} (host:port,…) and ${names[1]} (the master's name)`,
    );
  }
  return defined({ sentinels, masterName, password });
}
