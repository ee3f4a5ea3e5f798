import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ConnectionConfigError } from "./connection-config-error.js";

/** PEM file paths for TLS; giving any field turns TLS on. */
export const tlsFilesSchema = z
  .object({
    /** CA certificate(s) that signed the server's certificate. */
    caFile: z.string().min(1).optional(),
    /** Client certificate, with `keyFile`. */
    certFile: z.string().min(1).optional(),
    /** The client certificate's private key, with `certFile`. */
    keyFile: z.string().min(1).optional(),
  })
  .strict();
export type TlsFiles = z.infer<typeof tlsFilesSchema>;

/** One URL, a comma-separated list, or an array of URLs. */
const urlListSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** The `nats` section of a connection config file. */
export const natsConfigSchema = z
  .object({
    /** Seed URLs (`nats://`, `tls://`). */
    urls: urlListSchema.optional(),
    user: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    token: z.string().min(1).optional(),
    /** File holding a user NKey seed (`SU…`). */
    nkeySeedFile: z.string().min(1).optional(),
    /** A `.creds` file (JWT + NKey seed). */
    credsFile: z.string().min(1).optional(),
    tls: tlsFilesSchema.optional(),
  })
  .strict();
export type NatsConfig = z.infer<typeof natsConfigSchema>;

/** The `redis` section of a connection config file: one of `url`, `cluster`, `sentinel`. */
export const redisConfigSchema = z
  .object({
    /** Standalone server: `redis://` or `rediss://` (TLS). */
    url: z.string().min(1).optional(),
    /** Redis Cluster: seed node URLs (`redis://host:port`). */
    cluster: urlListSchema.optional(),
    /** Sentinel: the sentinels' `host:port` addresses and the master's name. */
    sentinel: z
      .object({
        sentinels: urlListSchema,
        masterName: z.string().min(1),
        password: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** ACL user name. */
    username: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    tls: tlsFilesSchema.optional(),
  })
  .strict()
  .refine(
    (redis) =>
      [redis.url, redis.cluster, redis.sentinel].filter((mode) => mode !== undefined).length <= 1,
    { message: "give one of redis.url, redis.cluster and redis.sentinel" },
  );
export type RedisConfig = z.infer<typeof redisConfigSchema>;

/**
 * A connection config file (`--config <file>` / `TROUPE_CONFIG`), YAML or
 * JSON (JSON is YAML). Every field is optional; flags and `TROUPE_*`
 * variables override it field by field (docs/decisions/0033). Relative file paths are
 * taken relative to the config file's folder.
 *
 * @example
 * ```yaml
 * prefix: acme
 * nats:
 *   urls: [tls://nats-0:4222, tls://nats-1:4222]
 *   credsFile: /etc/troupe/host.creds
 *   tls: { caFile: ca.pem }
 * redis:
 *   sentinel: { sentinels: ["10.0.0.5:26379"], masterName: troupe }
 *   username: troupe-host
 *   password: from-a-secret
 * ```
 */
export const connectionConfigSchema = z
  .object({
    prefix: z.string().min(1).optional(),
    nats: natsConfigSchema.optional(),
    redis: redisConfigSchema.optional(),
  })
  .strict();
export type ConnectionConfig = z.infer<typeof connectionConfigSchema>;

/**
 * Reads and validates a connection config file.
 *
 * @param path - the file (YAML or JSON).
 * @returns the validated config, file paths resolved against the file's folder.
 * @throws {@link ConnectionConfigError} when the file cannot be read, is not
 *   YAML/JSON, or breaks {@link connectionConfigSchema} (the message lists the
 *   fields, never their values).
 */
export async function readConnectionConfig(path: string): Promise<ConnectionConfig> {
  const source = `config file ${path}`;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConnectionConfigError(source, `cannot read it (${(error as Error).message})`, error);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    // The YAML error quotes the line, which could hold a secret: keep only its position.
    const position = (error as { linePos?: [{ line: number }] }).linePos?.[0]?.line;
    throw new ConnectionConfigError(
      source,
      `not valid YAML or JSON${position === undefined ? "" : ` (line ${position})`}`,
    );
  }
  const parsed = connectionConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`)
      .join("; ");
    throw new ConnectionConfigError(source, problems);
  }
  return withPathsFrom(dirname(path), parsed.data);
}

/** The config with its file paths resolved against `folder`. */
function withPathsFrom(folder: string, config: ConnectionConfig): ConnectionConfig {
  const file = (path: string | undefined) =>
    path === undefined ? undefined : resolve(folder, path);
  const tls = (files: TlsFiles | undefined): TlsFiles | undefined =>
    files === undefined
      ? undefined
      : defined({
          caFile: file(files.caFile),
          certFile: file(files.certFile),
          keyFile: file(files.keyFile),
        });
  const { nats, redis } = config;
  return defined({
    ...config,
    nats:
      nats === undefined
        ? undefined
        : defined({
            ...nats,
            nkeySeedFile: file(nats.nkeySeedFile),
            credsFile: file(nats.credsFile),
            tls: tls(nats.tls),
          }),
    redis: redis === undefined ? undefined : defined({ ...redis, tls: tls(redis.tls) }),
  });
}

/** `value` without its `undefined` fields (for `exactOptionalPropertyTypes`-style shapes). */
export function defined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
