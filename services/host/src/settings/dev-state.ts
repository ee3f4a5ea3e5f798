import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { devStatePath, readDevStateFile, type DevState } from "@troupe/client/internal";

// The state file's schema, path and readers live in @troupe/client, so that
// `TroupeClient.connect()` finds a running `troupe dev` the same way the CLI
// does; only `troupe dev` writes it, from here.
export {
  devStatePath,
  devStateSchema,
  isProcessAlive,
  readDevState,
  readDevStateFile,
  troupeHome,
  type DevState,
} from "@troupe/client/internal";

/** Writes the state file of this `troupe dev` process (aside, then renamed: a reader never sees half a file). */
export async function writeDevState(state: DevState): Promise<void> {
  const path = devStatePath();
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
  await rename(partial, path);
}

/** Removes the state file if `pid` wrote it. */
export async function removeDevState(pid: number): Promise<void> {
  const state = await readDevStateFile();
  if (state?.pid === pid) await rm(devStatePath(), { force: true });
}
