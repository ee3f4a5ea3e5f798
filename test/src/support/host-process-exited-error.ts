/**
 * A host child process ended before it printed its ready line (it refused to
 * start or crashed while starting). Carries how it ended and what it wrote, so a
 * test can assert on them.
 */
export class HostProcessExitedError extends Error {
  /**
   * @param code - exit code, or null when a signal ended the process.
   * @param signal - the signal that ended it, or null.
   * @param stdout - everything it wrote to stdout (its JSON log lines).
   * @param stderr - everything it wrote to stderr.
   */
  constructor(
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`host exited (${code ?? signal}) before ready:\n${stderr}`);
    this.name = "HostProcessExitedError";
  }
}
