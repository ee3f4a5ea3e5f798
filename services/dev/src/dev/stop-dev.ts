import { pollUntil } from "../local-servers/poll-until.js";
import { DevNotRunningError } from "./dev-not-running-error.js";
import { devStatePath, isProcessAlive, readDevState, type DevState } from "@troupe/host/internal";

/**
 * Stops the running `troupe dev` of this Troupe home (`$TROUPE_HOME`, default
 * `~/.troupe`) as Ctrl-C in its terminal does: SIGTERM to the process named by
 * its state file, which drains the hosts, then stops the servers it started
 * and removes the file. Waits until the process is gone.
 *
 * @param timeoutMs - how long to wait for it to exit, in ms.
 * @returns the state of the stopped `troupe dev`, and whether it exited in time.
 * @throws DevNotRunningError when no live `troupe dev` is recorded.
 */
export async function stopDev(timeoutMs: number): Promise<{ state: DevState; exited: boolean }> {
  const state = await readDevState();
  if (state === undefined) throw new DevNotRunningError(devStatePath());
  try {
    process.kill(state.pid, "SIGTERM");
  } catch (error) {
    // Gone between the read and the signal: stopped all the same.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
  const exited = await pollUntil(
    () => Promise.resolve(isProcessAlive(state.pid) ? undefined : true),
    { timeoutMs, intervalMs: 100 },
  );
  return { state, exited: exited === true };
}
