import {
  startTroupeServerProcess,
  type TroupeServerProcess,
} from "../support/troupe-server-process.js";

/** The ready line `troupe a2a --json` prints. */
export interface A2aReady {
  readonly ready: true;
  readonly url: string;
  readonly auth: "none" | "bearer";
  readonly agents: { name: string; cardUrl: string; endpoint: string }[];
}

/** A `troupe a2a` child process. */
export interface TroupeA2a extends TroupeServerProcess {
  readonly ready: A2aReady;
}

/**
 * Starts `troupe a2a --json <args>` against the `troupe dev` of `home` and
 * waits for its ready line.
 *
 * @param home - TROUPE_HOME of the running `troupe dev`.
 * @param args - extra arguments, e.g. `["--port", "0", "--token", "t"]`.
 * @param readyTimeoutMs - how long startup may take, in ms; default 60 000.
 * @throws Error with the output when it exits first or is not ready in time.
 */
export async function startTroupeA2a(
  home: string,
  args: readonly string[],
  readyTimeoutMs = 60_000,
): Promise<TroupeA2a> {
  const server = await startTroupeServerProcess(home, ["a2a", "--json", ...args], {
    name: "troupe a2a",
    ready: (stdout) => stdout.includes("\n"),
    readyTimeoutMs,
  });
  return { ...server, ready: JSON.parse(server.stdout().split("\n")[0]!) as A2aReady };
}
