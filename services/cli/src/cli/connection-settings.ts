import { resolveDeployment, type DevState } from "@troupe/client";
import { devStatePath } from "../dev/dev-state.js";

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
 * state file), else the default local ports (4222, 6379). The NATS URL and
 * prefix come from `resolveDeployment` of `@troupe/client`, the lookup
 * `TroupeClient.connect()` makes (issue #13); Redis follows the same order.
 *
 * @param flags - the command's connection flags.
 * @returns URLs, prefix and where the NATS URL came from.
 */
export async function resolveConnection(flags: ConnectionFlags): Promise<ConnectionSettings> {
  const found = await resolveDeployment({
    ...(flags.nats === undefined ? {} : { natsUrl: flags.nats }),
    ...(flags.prefix === undefined ? {} : { prefix: flags.prefix }),
  });
  const { dev, staleDev } = found;
  const redisUrl =
    flags.redis ?? process.env.TROUPE_REDIS_URL ?? dev?.redisUrl ?? DEFAULT_REDIS_URL;
  const source: SettingSource =
    found.source === "option" || flags.redis !== undefined ? "flag" : found.source;
  return {
    natsUrl: found.natsUrls.join(","),
    redisUrl,
    prefix: found.prefix,
    source,
    ...(dev === undefined ? {} : { dev }),
    ...(staleDev === undefined || found.source !== "default"
      ? {}
      : {
          note:
            `the troupe dev recorded in ${devStatePath()} (pid ${staleDev.pid}, ${staleDev.natsUrl}) ` +
            `is gone; using ${found.natsUrls.join(",")}`,
        }),
  };
}
