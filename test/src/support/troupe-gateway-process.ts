import { startTroupeServerProcess, type TroupeServerProcess } from "./troupe-server-process.js";

/** A `troupe gateway` child process (issue #16). */
export interface TroupeGateway extends TroupeServerProcess {
  /** Base URL from its startup line, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
}

const startupLine = /troupe gateway: serving (\S+) \(/;

/**
 * Starts `troupe gateway <args>` against the `troupe dev` of `home` and waits
 * for its startup line (`troupe gateway: serving <url> (…)`).
 *
 * @param home - TROUPE_HOME of the running `troupe dev`.
 * @param args - e.g. `["--token", "t"]`; without `--port` it is `--port 0`.
 * @param readyTimeoutMs - how long startup may take, in ms; default 60 000.
 * @throws Error with the output when it exits first or is not ready in time.
 */
export async function startTroupeGateway(
  home: string,
  args: readonly string[] = [],
  readyTimeoutMs = 60_000,
): Promise<TroupeGateway> {
  const portArgs = args.includes("--port") ? [] : ["--port", "0"];
  const server = await startTroupeServerProcess(home, ["gateway", ...portArgs, ...args], {
    name: "troupe gateway",
    ready: (stdout) => startupLine.test(stdout),
    readyTimeoutMs,
  });
  return { ...server, url: startupLine.exec(server.stdout())![1]! };
}
