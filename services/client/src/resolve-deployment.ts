import { DEFAULT_DEPLOYMENT_PREFIX, natsServerUrls } from "@troupe/protocol";
import { readDevStateFile, isProcessAlive, type DevState, type Environment } from "./dev-state.js";

/** The default NATS URL when nothing else names one. */
export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";

/**
 * Where the NATS URL of a {@link ResolvedDeployment} came from: the caller's
 * option (a CLI flag), `TROUPE_NATS_URL`, the running `troupe dev`'s state
 * file, or {@link DEFAULT_NATS_URL}.
 */
export type NatsUrlSource = "option" | "environment" | "troupe dev" | "default";

/** What {@link resolveDeployment} found. */
export interface ResolvedDeployment {
  /** At least one URL (a comma-separated value is split). */
  readonly natsUrls: string[];
  /** Deployment prefix. */
  readonly prefix: string;
  /** Where `natsUrls` came from. */
  readonly source: NatsUrlSource;
  /** The running `troupe dev`, when there is one (whatever the URL came from). */
  readonly dev?: DevState;
  /** A state file whose `troupe dev` is gone (its process does not exist); it was ignored. */
  readonly staleDev?: DevState;
}

/**
 * Finds the deployment to talk to, the same way for `TroupeClient.connect()`
 * and every `troupe` command (docs/decisions/0019). NATS URL, first that is set:
 *
 * 1. `natsUrl` (the option / the `--nats` flag);
 * 2. `TROUPE_NATS_URL` (comma-separated for several servers);
 * 3. the running `troupe dev`: `<TROUPE_HOME or ~/.troupe>/dev.json`, counted
 *    only while the process it names lives (a stale file is ignored and
 *    reported as `staleDev`);
 * 4. {@link DEFAULT_NATS_URL} (`nats://127.0.0.1:4222`).
 *
 * Prefix: `prefix`, else `TROUPE_PREFIX`, else the running `troupe dev`'s, else `"troupe"`.
 *
 * @param options - `natsUrl` and `prefix` when the caller has them.
 * @param environment - where the variables are read; default `process.env`.
 * @returns URLs, prefix, where the URLs came from and the `troupe dev` found.
 * @example
 * const { natsUrls, source } = await resolveDeployment({});
 * // with `troupe dev` running on port 4223: ["nats://127.0.0.1:4223"], "troupe dev"
 */
export async function resolveDeployment(
  options: { readonly natsUrl?: string | readonly string[]; readonly prefix?: string },
  environment: Environment = process.env,
): Promise<ResolvedDeployment> {
  const file = await readDevStateFile(environment);
  const alive = file !== undefined && isProcessAlive(file.pid);
  const dev = alive ? file : undefined;
  const fromEnvironment = nonEmpty(environment["TROUPE_NATS_URL"]);
  const [given, source]: [string | readonly string[], NatsUrlSource] =
    options.natsUrl !== undefined
      ? [options.natsUrl, "option"]
      : fromEnvironment !== undefined
        ? [fromEnvironment, "environment"]
        : dev !== undefined
          ? [dev.natsUrl, "troupe dev"]
          : [DEFAULT_NATS_URL, "default"];
  return {
    natsUrls: splitNatsUrls(given),
    prefix:
      options.prefix ??
      nonEmpty(environment["TROUPE_PREFIX"]) ??
      dev?.prefix ??
      DEFAULT_DEPLOYMENT_PREFIX,
    source,
    ...(dev === undefined ? {} : { dev }),
    ...(file !== undefined && !alive ? { staleDev: file } : {}),
  };
}

/**
 * Splits NATS server URLs: a comma-separated string or a list, trimmed, empty
 * entries dropped (`natsServerUrls` of `@troupe/protocol`).
 *
 * @returns at least one URL ({@link DEFAULT_NATS_URL} when none is left).
 */
export function splitNatsUrls(given: string | readonly string[]): string[] {
  const urls = natsServerUrls(given);
  return urls.length === 0 ? [DEFAULT_NATS_URL] : urls;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
