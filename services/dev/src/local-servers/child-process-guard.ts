import { spawn, type ChildProcess } from "node:child_process";
import { Socket } from "node:net";

/** How long the watchdog waits after SIGTERM before it sends SIGKILL, in seconds (shell `sleep`). */
const watchdogGraceSeconds = 5;

/**
 * Waits until its standard input reaches end-of-file, which happens when the
 * process holding the other end of the pipe dies for any reason (SIGKILL
 * included), then terminates the guarded process, and kills it if it lingers.
 */
const watchdogScript = [
  // A terminal's Ctrl-C or hang-up reaches the whole foreground group: the
  // watchdog must outlive them to stop a detached child if the parent then dies.
  "trap '' INT HUP",
  "read -r _ignored",
  'kill -TERM "$1" 2>/dev/null || exit 0',
  `sleep ${watchdogGraceSeconds}`,
  'kill -KILL "$1" 2>/dev/null',
  "exit 0",
].join("\n");

const guardedChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Handle returned by {@link guardChildProcess}. */
export interface ChildProcessGuard {
  /** Stops guarding (call once the child has exited or is being stopped deliberately). */
  release(): void;
}

/**
 * Keeps a spawned server from outliving this Node.js process.
 *
 * Two mechanisms, because neither covers every way a process ends:
 * - a `process.on("exit")` hook sends SIGTERM to every guarded child when this
 *   process exits normally or through `process.exit()`;
 * - on POSIX systems, a tiny `/bin/sh` watchdog holds a pipe from this process;
 *   when this process dies without running exit hooks (SIGKILL, a fatal signal,
 *   an out-of-memory kill) the pipe closes and the watchdog sends SIGTERM to the
 *   child, then SIGKILL after 5 s.
 *
 * Children are never detached, so a Ctrl-C in a terminal also reaches them
 * through the process group.
 *
 * @param child - A child that was spawned successfully (has a `pid`).
 * @returns A guard to release when the child has exited.
 */
export function guardChildProcess(child: ChildProcess): ChildProcessGuard {
  installExitHook();
  guardedChildren.add(child);
  const watchdog = child.pid === undefined ? undefined : startWatchdog(child.pid);
  return {
    release() {
      guardedChildren.delete(child);
      if (watchdog !== undefined && watchdog.exitCode === null && watchdog.signalCode === null) {
        watchdog.kill("SIGKILL");
      }
    },
  };
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of guardedChildren) child.kill("SIGTERM");
  });
}

function startWatchdog(pid: number): ChildProcess | undefined {
  if (process.platform === "win32") return undefined;
  const watchdog = spawn("/bin/sh", ["-c", watchdogScript, "troupe-watchdog", String(pid)], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  watchdog.on("error", () => {
    // Without /bin/sh the exit hook still covers ordinary exits.
  });
  // The watchdog must never keep this process alive on its own.
  watchdog.unref();
  if (watchdog.stdin instanceof Socket) watchdog.stdin.unref();
  return watchdog;
}
