import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";

/**
 * What a running `troupe dev` records so that other `troupe` commands find its
 * cluster without flags: `<troupe home>/dev.json` (see {@link troupeHome}).
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
  hosts: z.array(z.object({ hostId: z.string(), pid: z.number().int() })),
  /** Where the servers keep their data, when `troupe dev` started them. */
  dataDir: z.string().optional(),
  startedAtMs: z.number(),
});
/** See {@link devStateSchema}. */
export type DevState = z.infer<typeof devStateSchema>;

/**
 * The folder where the `troupe` CLI keeps its files: `$TROUPE_HOME`, default
 * `~/.troupe`.
 */
export function troupeHome(): string {
  return process.env.TROUPE_HOME ?? join(homedir(), ".troupe");
}

/** Path of the `troupe dev` state file: `<troupe home>/dev.json`. */
export function devStatePath(): string {
  return join(troupeHome(), "dev.json");
}

/** Writes the state file of this `troupe dev` process. */
export async function writeDevState(state: DevState): Promise<void> {
  const path = devStatePath();
  await mkdir(dirname(path), { recursive: true });
  // Written aside and renamed: a reader never sees half a file.
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
  await rename(partial, path);
}

/**
 * Reads the state file of a running `troupe dev`.
 *
 * @returns the state, or `undefined` when there is no file, it does not parse,
 *   or the process that wrote it is gone.
 */
export async function readDevState(): Promise<DevState | undefined> {
  const state = await readDevStateFile();
  return state !== undefined && isAlive(state.pid) ? state : undefined;
}

/** Removes the state file if `pid` wrote it. */
export async function removeDevState(pid: number): Promise<void> {
  const state = await readDevStateFile();
  if (state?.pid === pid) await rm(devStatePath(), { force: true });
}

/**
 * Reads the state file whether or not its `troupe dev` still runs (to tell a
 * user that the one they started is gone).
 *
 * @returns the state, or `undefined` when there is no readable file.
 */
export async function readDevStateFile(): Promise<DevState | undefined> {
  try {
    const parsed = devStateSchema.safeParse(JSON.parse(await readFile(devStatePath(), "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this id exists (signal 0 checks without sending). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
