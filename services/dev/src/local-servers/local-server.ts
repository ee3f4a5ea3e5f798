/**
 * A server process started on this machine by {@link startLocalNatsServer} or
 * {@link startLocalRedisServer}.
 *
 * Shape: `{ url, pid, dataDir, stop() }`.
 */
export interface LocalServer {
  /** Client URL, for example `nats://127.0.0.1:41833` or `redis://127.0.0.1:39121`. */
  readonly url: string;
  /** Operating-system process id of the server. */
  readonly pid: number;
  /**
   * Fresh temporary folder owned by this server (generated config, ports file and,
   * unless a `storeDir` was given, its data). Removed by {@link LocalServer.stop}.
   */
  readonly dataDir: string;
  /**
   * Stops the server: SIGTERM, SIGKILL if it is still running after the stop
   * timeout, waits for the process to exit, then removes {@link LocalServer.dataDir}
   * (never a caller-provided `storeDir`). Safe to call more than once.
   */
  stop(): Promise<void>;
}
