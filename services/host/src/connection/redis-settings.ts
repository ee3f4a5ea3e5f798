import type { TlsFiles } from "./connection-config.js";

/**
 * Where Redis is, in one of three connection modes (docs/decisions/0033):
 *
 * - `standalone`: one server, `redis://` or `rediss://` (TLS) URL;
 * - `cluster`: Redis Cluster, seed node URLs (ioredis `Cluster` discovers the rest);
 * - `sentinel`: a master found through Sentinel: the sentinels' `host:port`
 *   addresses, the master's name and the sentinels' own password, if any.
 */
export type RedisEndpoint =
  | { readonly mode: "standalone"; readonly url: string }
  | { readonly mode: "cluster"; readonly nodes: readonly string[] }
  | {
      readonly mode: "sentinel";
      readonly sentinels: readonly string[];
      readonly masterName: string;
      readonly sentinelPassword?: string;
    };

/**
 * Everything needed to open a Redis connection: the endpoint plus ACL user,
 * password (overriding the URL's userinfo) and TLS files. See
 * `createRedisConnection`.
 */
export type RedisSettings = RedisEndpoint & {
  /** ACL user name. */
  readonly username?: string;
  /** Password of the ACL user (or `requirepass`). Never logged. */
  readonly password?: string;
  /** TLS files; with a `rediss://` URL TLS is on even without them. */
  readonly tls?: TlsFiles;
};

/**
 * A printable description of the settings, secrets redacted: the URL, the
 * cluster nodes or `sentinel <master> via <addresses>`.
 *
 * @param settings - Redis settings.
 * @returns e.g. `redis://app:***@127.0.0.1:6379`, `cluster redis://a:7000,redis://b:7001`.
 */
export function describeRedis(settings: RedisSettings, redact: (url: string) => string): string {
  switch (settings.mode) {
    case "standalone":
      return redact(settings.url);
    case "cluster":
      return `cluster ${settings.nodes.map(redact).join(",")}`;
    case "sentinel":
      return `sentinel master ${settings.masterName} via ${settings.sentinels.map(redact).join(",")}`;
  }
}
