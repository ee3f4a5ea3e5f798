import { mkdir, open, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DevAlreadyRunningError } from "./dev-already-running-error.js";
import { isProcessAlive, readDevState, troupeHome } from "@troupe/host/internal";

/** Path of the lock a starting or running `troupe dev` holds: `<troupe home>/dev.lock`. */
export function devLockPath(): string {
  return join(troupeHome(), "dev.lock");
}

/**
 * Takes the `troupe dev` lock of this Troupe home for this process: created
 * exclusively (`O_EXCL`), so two starts at the same moment cannot both pass;
 * a lock left by a process that is gone is taken over.
 *
 * @returns a function that releases it.
 * @throws DevAlreadyRunningError when a live process holds it.
 */
export async function acquireDevLock(): Promise<() => Promise<void>> {
  const path = devLockPath();
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return async () => {
        if ((await lockHolder(path)) === process.pid) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await lockHolder(path);
    if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) {
      throw new DevAlreadyRunningError(holder, await readDevState());
    }
    await rm(path, { force: true }); // left by a process that is gone
  }
  throw new Error(`could not take ${path}`);
}

async function lockHolder(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(path, "utf8"), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
