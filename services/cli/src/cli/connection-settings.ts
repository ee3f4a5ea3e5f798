import { DEFAULT_DEPLOYMENT_PREFIX } from "@troupe/protocol";
import { DEFAULT_NATS_URL } from "@troupe/client";
import { devStatePath, isAlive, readDevStateFile, type DevState } from "../dev/dev-state.js";
/** Default Redis URL when nothing else is given. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** Where a connection setting came from, for messages. */
export type SettingSource = "flag" | "environment" | "troupe dev" | "default";

/** The servers a `troupe` command talks to. */
export interface ConnectionSettings {
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** Deployment prefix (Redis keys, stream names); default `"troupe"`. */
  readonly prefix: string;
  /** Where `natsUrl` came from. */
  readonly source: SettingSource;
  /** Something the user should know about the choice (printed on stderr by the CLI). */
  readonly note?: string;
  /** The running `troupe dev`, when there is one (whatever the URLs came from). */
  readonly dev?: DevState;
}

/** Connection flags every command accepts. */
export interface ConnectionFlags {
  readonly nats?: string | undefined;
  readonly redis?: string | undefined;
  readonly prefix?: string | undefined;
}

/**
 * Finds the servers for a command: `--nats`/`--redis` flags, else
 * `TROUPE_NATS_URL`/`TROUPE_REDIS_URL`, else the running `troupe dev` (its
 * state file), else the default local ports (4222, 6379).
 *
 * @param flags - the command's connection flags.
 * @returns URLs, prefix and where the NATS URL came from.
 */
export async function resolveConnection(flags: ConnectionFlags): Promise<ConnectionSettings> {
  const file = await readDevStateFile();
  const dev = file !== undefined && isAlive(file.pid) ? file : undefined;
  const withDev = dev === undefined ? {} : { dev };
  const prefix =
    flags.prefix ?? process.env.TROUPE_PREFIX ?? dev?.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;
  if (flags.nats !== undefined || flags.redis !== undefined) {
    return {
      natsUrl: flags.nats ?? process.env.TROUPE_NATS_URL ?? dev?.natsUrl ?? DEFAULT_NATS_URL,
      redisUrl: flags.redis ?? process.env.TROUPE_REDIS_URL ?? dev?.redisUrl ?? DEFAULT_REDIS_URL,
      prefix,
      source: "flag",
      ...withDev,
    };
  }
  if (process.env.TROUPE_NATS_URL !== undefined) {
    return {
      natsUrl: process.env.TROUPE_NATS_URL,
      redisUrl: process.env.TROUPE_REDIS_URL ?? dev?.redisUrl ?? DEFAULT_REDIS_URL,
      prefix,
      source: "environment",
      ...withDev,
    };
  }
  if (dev !== undefined) {
    return { natsUrl: dev.natsUrl, redisUrl: dev.redisUrl, prefix, source: "troupe dev", dev };
  }
  const stale = file;
  return {
    natsUrl: DEFAULT_NATS_URL,
    redisUrl: process.env.TROUPE_REDIS_URL ?? DEFAULT_REDIS_URL,
    prefix,
    source: "default",
    ...(stale === undefined
      ? {}
      : {
          note:
            `the troupe dev recorded in ${devStatePath()} (pid ${stale.pid}, ${stale.natsUrl}) ` +
            `is gone; using ${DEFAULT_NATS_URL}`,
        }),
  };
}
