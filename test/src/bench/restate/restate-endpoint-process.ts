import { fileURLToPath } from "node:url";
import { nodeArgsFor } from "../../harness/child-code.js";
import { parseEndpointReadyLine } from "./endpoint-ready-line.js";
import { RestateUnavailableError } from "./restate-unavailable-error.js";
import { spawnProcess, type SpawnedProcess } from "./spawned-process.js";

const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The endpoint's entry, relative to the repository root. */
export const restateTurnEndpointEntry = "test/src/bench/restate/restate-turn-endpoint.ts";

/** The `turn` virtual object's endpoint child process; see {@link startRestateEndpoint}. */
export interface RestateEndpoint {
  readonly pid: number;
  /** Where Restate reaches it (HTTP/2 without TLS), e.g. `http://127.0.0.1:40125`. */
  readonly url: string;
  /** SIGTERM (SIGKILL after 5 s). Safe to call more than once. */
  readonly stop: () => Promise<void>;
}

/**
 * Starts `restate-turn-endpoint.ts` as a child process, run like the Troupe
 * host child (`harness/child-code.ts`: built JavaScript from `test/dist/` when
 * it is there, else the TypeScript source through tsx), with the SDK's log
 * level `WARN`, and waits for its ready line.
 *
 * @param readyTimeoutMs - how long it may take, in ms.
 * @returns the running endpoint.
 * @throws RestateUnavailableError when it exits or is not listening in time (it is stopped).
 */
export async function startRestateEndpoint(readyTimeoutMs: number): Promise<RestateEndpoint> {
  let nodeArguments: string[];
  try {
    nodeArguments = nodeArgsFor(restateTurnEndpointEntry);
  } catch {
    // No build of the benchmark's own files: run the source.
    nodeArguments = ["--import", "tsx", "--conditions=@troupe/source", restateTurnEndpointEntry];
  }
  let endpoint: SpawnedProcess | undefined;
  try {
    endpoint = await spawnProcess(process.execPath, nodeArguments, {
      cwd: repositoryRoot,
      env: { ...process.env, RESTATE_LOGGING: "WARN" },
    });
    const running = endpoint;
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`turn endpoint not listening within ${readyTimeoutMs} ms`)),
        readyTimeoutMs,
      );
      running.onStdoutLine((line) => {
        const parsed = parseEndpointReadyLine(line);
        if (parsed === undefined) return;
        clearTimeout(timer);
        resolve(parsed);
      });
      void running.exited.then(() => {
        clearTimeout(timer);
        reject(new Error("turn endpoint exited before listening"));
      });
    });
    return {
      pid: running.pid,
      url: `http://127.0.0.1:${port}`,
      stop: () => running.stop(5_000),
    };
  } catch (error) {
    const output = endpoint?.outputTail() ?? "";
    await endpoint?.stop(5_000);
    throw new RestateUnavailableError(
      error instanceof Error ? error.message : String(error),
      output,
      { cause: error },
    );
  }
}
