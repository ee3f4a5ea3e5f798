import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";

/** Environment variables, as in `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * What a running `troupe dev` records so that other `troupe` commands and
 * `TroupeClient.connect()` find its cluster without flags:
 * `<troupe home>/dev.json` (see {@link troupeHome}). Written by the CLI's
 * `troupe dev`, read here (one reader for the CLI and the client).
 */
export const devStateSchema = z.object({
  version: z.literal(1),
  /** Process id of the `troupe dev` process; the file counts only while it lives. */
  pid: z.number().int(),
  natsUrl: z.string(),
  redisUrl: z.string(),
  /** nats-server HTTP monitor URL, when `troupe dev` started the server. */
  natsMonitorUrl: z.string().optional(),
  prefix: z.string(),
  shardCount: z.number().int().min(1),
  /** The agent module the hosts serve (`"demo"` for the built-in demo agent). */
  agentModule: z.string(),
  /** Names of the agents served. */
  agents: z.array(z.string()),
  /** The model each agent uses, by agent name (e.g. `"openai:gpt-4.1-mini"`); absent in older files. */
  models: z.record(z.string(), z.string()).optional(),
  /** The hosts; `metricsUrl` is each one's Prometheus endpoint (absent in older files). */
  hosts: z.array(
    z.object({ hostId: z.string(), pid: z.number().int(), metricsUrl: z.string().optional() }),
  ),
  /** Where the servers keep their data, when `troupe dev` started them. */
  dataDir: z.string().optional(),
  /** Base URL of the HTTP gateway and web console `troupe dev` runs; absent without one. */
  gatewayUrl: z.string().optional(),
  startedAtMs: z.number(),
});
/** See {@link devStateSchema}. */
export type DevState = z.infer<typeof devStateSchema>;

/**
 * The folder where Troupe keeps its local files: `$TROUPE_HOME`, default
 * `~/.troupe`.
 *
 * @param environment - where `TROUPE_HOME` is read; default `process.env`.
 */
export function troupeHome(environment: Environment = process.env): string {
  const home = environment["TROUPE_HOME"];
  return home === undefined || home === "" ? join(homedir(), ".troupe") : home;
}

/**
 * Path of the `troupe dev` state file: `<troupe home>/dev.json`.
 *
 * @param environment - where `TROUPE_HOME` is read; default `process.env`.
 */
export function devStatePath(environment: Environment = process.env): string {
  return join(troupeHome(environment), "dev.json");
}

/**
 * Reads the state file whether or not its `troupe dev` still runs (to tell a
 * user that the one they started is gone).
 *
 * @param environment - where `TROUPE_HOME` is read; default `process.env`.
 * @returns the state, or `undefined` when there is no file or it does not
 *   parse as {@link devStateSchema}.
 */
export async function readDevStateFile(
  environment: Environment = process.env,
): Promise<DevState | undefined> {
  try {
    const text = await readFile(devStatePath(environment), "utf8");
    const parsed = devStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the state file of a running `troupe dev`: the file counts only while
 * the process that wrote it lives ({@link isProcessAlive}).
 *
 * @param environment - where `TROUPE_HOME` is read; default `process.env`.
 * @returns the state, or `undefined` when there is no file, it does not parse,
 *   or the process that wrote it is gone.
 */
export async function readDevState(
  environment: Environment = process.env,
): Promise<DevState | undefined> {
  const state = await readDevStateFile(environment);
  return state !== undefined && isProcessAlive(state.pid) ? state : undefined;
}

/**
 * Whether a process with this id exists on this machine (signal 0 checks
 * without sending; `EPERM` means it exists under another user).
 *
 * @param pid - process id.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
