import { readFileSync } from "node:fs";
import type { ConnectionOptions as TlsConnectionOptions } from "node:tls";
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import type { RedisConnection } from "@troupe/runtime";
import { redactUrl } from "@troupe/client";
import type { TlsFiles } from "./connection-config.js";
import { ConnectionConfigError } from "./connection-config-error.js";
import type { RedisSettings } from "./redis-settings.js";

/** Options of `createRedisConnection` that are also Cluster-level options. */
const CLUSTER_LEVEL_OPTIONS = [
  "lazyConnect",
  "enableOfflineQueue",
  "enableAutoPipelining",
  "keyPrefix",
  "scripts",
] as const;

/**
 * Opens the deployment's Redis connection — the one factory every CLI entry
 * point uses (docs/decisions/0033): a `Redis` for a standalone server (`redis://`,
 * `rediss://`) or a Sentinel-managed master (`sentinels` + `name`), a
 * `Cluster` for Redis Cluster. ACL user, password and TLS files apply to every
 * node (and to the master found through Sentinel).
 *
 * @param settings - endpoint, credentials and TLS (see {@link RedisSettings}).
 * @param options - ioredis options for this use (`retryStrategy`,
 *   `maxRetriesPerRequest`, `lazyConnect`, …); for a Cluster they apply to each
 *   node, and the Cluster-level ones (`lazyConnect`, `enableOfflineQueue`,
 *   `enableAutoPipelining`, `keyPrefix`) to the Cluster too.
 * @returns the connection (connecting unless `lazyConnect`).
 * @throws {@link ConnectionConfigError} for a URL ioredis cannot read or a
 *   TLS file that cannot be read (the message names the setting, never a password).
 * @example
 * const redis = createRedisConnection(
 *   { mode: "standalone", url: "rediss://troupe:pw@redis:6380", tls: { caFile: "ca.pem" } },
 *   { maxRetriesPerRequest: 1 },
 * );
 */
export function createRedisConnection(
  settings: RedisSettings,
  options: RedisOptions = {},
): RedisConnection {
  const tls = tlsOptions(settings.tls);
  const credentials: RedisOptions = {
    ...(settings.username === undefined ? {} : { username: settings.username }),
    ...(settings.password === undefined ? {} : { password: settings.password }),
  };
  switch (settings.mode) {
    case "standalone": {
      const endpoint = parseRedisUrl(settings.url);
      const useTls = endpoint.tls || tls !== undefined;
      return new Redis({
        ...options,
        ...endpoint.options,
        ...credentials,
        ...(useTls ? { tls: tls ?? {} } : {}),
      });
    }
    case "cluster": {
      const nodes = settings.nodes.map((url) => parseRedisUrl(url));
      const useTls = nodes.some((node) => node.tls) || tls !== undefined;
      const first: RedisOptions = nodes[0]?.options ?? {};
      const clusterOptions: ClusterOptions = {
        redisOptions: {
          ...options,
          ...(first.username === undefined ? {} : { username: first.username }),
          ...(first.password === undefined ? {} : { password: first.password }),
          ...credentials,
          ...(useTls ? { tls: tls ?? {} } : {}),
        },
      };
      for (const key of CLUSTER_LEVEL_OPTIONS) {
        if (options[key] !== undefined) Object.assign(clusterOptions, { [key]: options[key] });
      }
      // Without a retry strategy of its own the Cluster would retry forever on the first connect.
      if (options.retryStrategy !== undefined)
        clusterOptions.clusterRetryStrategy = (times) => options.retryStrategy?.(times) ?? null;
      return new Cluster(
        nodes.map((node) => ({ host: node.options.host, port: node.options.port })),
        clusterOptions,
      );
    }
    case "sentinel":
      return new Redis({
        ...options,
        sentinels: settings.sentinels.map(parseSentinelAddress),
        name: settings.masterName,
        ...(settings.sentinelPassword === undefined
          ? {}
          : { sentinelPassword: settings.sentinelPassword }),
        ...credentials,
        ...(tls === undefined ? {} : { tls, enableTLSForSentinelMode: true }),
        // Without a retry strategy of its own, ioredis asks unreachable
        // sentinels again forever, silently (a host hung at start-up).
        ...(options.retryStrategy === undefined
          ? {}
          : {
              sentinelRetryStrategy: (times: number) => options.retryStrategy?.(times) ?? null,
            }),
      });
  }
}

interface ParsedRedisUrl {
  readonly tls: boolean;
  readonly options: RedisOptions & { host: string; port: number };
}

/** host, port, db and userinfo of a `redis://` / `rediss://` URL. */
function parseRedisUrl(url: string): ParsedRedisUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ConnectionConfigError("Redis URL", `${redactUrl(url)} is not a URL`, error);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new ConnectionConfigError(
      "Redis URL",
      `${redactUrl(url)} must start with redis:// or rediss:// (TLS)`,
    );
  }
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined;
  if (db !== undefined && !Number.isInteger(db)) {
    throw new ConnectionConfigError("Redis URL", `${redactUrl(url)}: the path must be a db number`);
  }
  return {
    tls: parsed.protocol === "rediss:",
    options: {
      host: parsed.hostname.replace(/^\[|\]$/g, ""),
      port: parsed.port === "" ? 6379 : Number(parsed.port),
      ...(db === undefined ? {} : { db }),
      ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
      ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    },
  };
}

/** Port of a sentinel address without one. */
const DEFAULT_SENTINEL_PORT = 26_379;

/** `host:port` (or `redis://host:port`) of a sentinel; port 26379 when none is given. */
function parseSentinelAddress(address: string): { host: string; port: number } {
  const url = address.includes("://") ? address : `redis://${address}`;
  const { options } = parseRedisUrl(url);
  return {
    host: options.host,
    port: new URL(url).port === "" ? DEFAULT_SENTINEL_PORT : options.port,
  };
}

/** Node TLS options from PEM files; `undefined` when none is given. */
function tlsOptions(files: TlsFiles | undefined): TlsConnectionOptions | undefined {
  if (files === undefined) return undefined;
  const read = (path: string | undefined, what: string) => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConnectionConfigError(
        `Redis TLS ${what}`,
        `cannot read ${path} (${(error as Error).message})`,
        error,
      );
    }
  };
  const ca = read(files.caFile, "CA file");
  const cert = read(files.certFile, "certificate file");
  const key = read(files.keyFile, "key file");
  if (ca === undefined && cert === undefined && key === undefined) return undefined;
  return {
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
  };
}
