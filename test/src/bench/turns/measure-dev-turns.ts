import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { devStateSchema } from "@troupe/host/internal";
import { TroupeClient } from "@troupe/client";
import { streamNames } from "@troupe/protocol/internal";
import type { BenchResources } from "../bench-resources.js";
import { childCode } from "../../harness/child-code.js";
import { devCpuLabel, devHostCpuLabel, sumHostCpu } from "./dev-cpu.js";
import type { DevTurnKind } from "./dev-turn-kinds.js";
import { measureNewSessionTurns, type NewSessionTurnsResult } from "./measure-new-session-turns.js";
import { measureSequentialTurns, type SequentialTurnsResult } from "./measure-sequential-turns.js";
import { threadCpuReader } from "./thread-cpu.js";
import { startTroupeDevProcess } from "./troupe-dev-process.js";
import { TurnDriver } from "./turn-driver.js";

/** The bench agent module `troupe dev --agent` serves: the bare host's agent. */
export const benchAgentModule = fileURLToPath(
  new URL("../../fixtures/bench-agent.ts", import.meta.url),
);

/** Options of {@link measureDevTurns}. */
export interface DevTurnsOptions {
  /** `troupe dev --hosts`. */
  readonly hosts: number;
  /** Further `troupe dev` arguments (e.g. `--no-gateway`, `--verbose` to compare). */
  readonly extraArgs?: readonly string[];
  /** Further environment of `troupe dev` and its hosts. */
  readonly env?: Readonly<Record<string, string>>;
  readonly texts: Readonly<Record<DevTurnKind, string>>;
  /** Sequential rows: sessions round robin, warm-up turns, measured turns (as rows a–b). */
  readonly sessions: number;
  readonly warmupTurns: number;
  readonly samples: number;
  /** Longest wait for one turn, in ms. */
  readonly turnTimeoutMs: number;
  readonly resources: BenchResources;
  readonly progress?: (line: string) => void;
}

/** What {@link measureDevTurns} measured through one `troupe dev`. */
export interface DevTurnsResult {
  readonly hosts: number;
  /** `TROUPE_CLI_MODE` of the run: the build (`dist`, as the bare host) or the sources through tsx. */
  readonly cliMode: "dist" | "source";
  /** `troupe dev` spawn to its banner's last line, in ms. */
  readonly startupMs: number;
  /** `TurnDriver` turns over warm sessions, as rows (a) and (b). */
  readonly sequential: Readonly<Record<DevTurnKind, SequentialTurnsResult>>;
  /** A new session per turn, `TroupeClient.sendAndWait`. */
  readonly newSession: Readonly<Record<DevTurnKind, NewSessionTurnsResult>>;
  /** Lines `troupe dev` printed while the turns ran (its formatted host logs, gateway lines). */
  readonly linesDuringTurns: number;
}

/**
 * Turns through the real `troupe dev` (gateway, host metrics endpoint, dev
 * log formatter and all) serving the bench agent: starts `troupe dev --agent
 * test/src/fixtures/bench-agent.ts --hosts <n>` on free ports with `--fresh`
 * and a temporary `TROUPE_HOME` (`startTroupeDevProcess`), with
 * `TROUPE_CLI_MODE=dist` when the benchmark's bare host runs the build (the
 * test harness's child code), so both run the same code. Then, per kind:
 * sequential turns with the bare-host rows' {@link TurnDriver}
 * (`measureSequentialTurns`), and turns to a new session each with
 * `TroupeClient.sendAndWait` (`measureNewSessionTurns`). CPU per turn covers
 * every process of `troupe dev`: itself (label `troupe dev`), its hosts
 * (summed as `host`), `nats-server` and `redis-server`. Stopped with SIGINT
 * (its Ctrl-C path) at the end; everything is tracked by `resources`.
 *
 * @param options - hosts, arguments, texts, counts, resources.
 * @returns the measurements.
 * @throws Error when `troupe dev` does not start, a turn fails, or a host
 *   restarted while the turns ran (its pid changed).
 */
export async function measureDevTurns(options: DevTurnsOptions): Promise<DevTurnsResult> {
  const { resources } = options;
  const progress = options.progress ?? (() => undefined);
  const cliMode = childCode();
  const dev = resources.track(
    await startTroupeDevProcess({
      args: [
        "--agent",
        benchAgentModule,
        "--hosts",
        String(options.hosts),
        ...(options.extraArgs ?? []),
      ],
      env: { TROUPE_CLI_MODE: cliMode, ...options.env },
      readyTimeoutMs: 120_000,
    }),
    (started) => started.stop(),
  );
  // Released newest first, `troupe dev` last, also when a turn fails.
  const opened: object[] = [dev];
  const open = <T extends object>(resource: T, stop: (resource: T) => Promise<void>): T => {
    opened.push(resources.track(resource, stop));
    return resource;
  };
  try {
    const { natsUrl, prefix } = dev.state;
    progress(
      `  troupe dev ready in ${(dev.startupMs / 1000).toFixed(1)} s: pid ${dev.pids.dev}, hosts ${dev.pids.hosts.join(", ")}`,
    );
    const nats = open(await connect({ servers: natsUrl }), (connection) => connection.close());
    const cluster = {
      js: jetstream(nats, { timeout: 30_000 }),
      jsm: await jetstreamManager(nats),
      streams: streamNames(prefix),
    };
    const driver = open(await TurnDriver.start(nats, natsUrl, options.turnTimeoutMs), (started) =>
      started.close(),
    );
    const client = open(await TroupeClient.connect({ natsUrl, prefix }), (started) =>
      started.close(),
    );
    const reader = threadCpuReader({
      [devCpuLabel]: dev.pids.dev,
      ...Object.fromEntries(dev.pids.hosts.map((pid, index) => [devHostCpuLabel(index + 1), pid])),
      "nats-server": dev.pids.natsServer,
      "redis-server": dev.pids.redisServer,
    });
    const readCpu = async () => sumHostCpu(await reader());
    const linesBefore = dev.lineCount();
    const sequential = await eachKind((kind) =>
      measureSequentialTurns(
        { cluster, driver, readCpu },
        {
          prefix: `dev-seq-${kind}`,
          text: options.texts[kind],
          sessions: options.sessions,
          warmupTurns: options.warmupTurns,
          samples: options.samples,
        },
      ),
    );
    const newSession = await eachKind((kind) =>
      measureNewSessionTurns(client, readCpu, {
        prefix: `dev-new-${kind}`,
        text: options.texts[kind],
        warmupTurns: options.warmupTurns,
        samples: options.samples,
        turnTimeoutMs: options.turnTimeoutMs,
      }),
    );
    const linesDuringTurns = dev.lineCount() - linesBefore;
    const after = devStateSchema.parse(
      JSON.parse(await readFile(join(dev.home, "dev.json"), "utf8")) as unknown,
    );
    const pidsAfter = after.hosts.map((host) => host.pid).join(", ");
    if (pidsAfter !== dev.pids.hosts.join(", ")) {
      throw new Error(
        `a troupe dev host restarted during the turns (pids ${dev.pids.hosts.join(", ")} → ${pidsAfter}):\n${dev.tail()}`,
      );
    }
    return {
      hosts: options.hosts,
      cliMode,
      startupMs: dev.startupMs,
      sequential,
      newSession,
      linesDuringTurns,
    };
  } finally {
    for (const resource of opened.reverse()) await resources.release(resource);
  }
}

/** Measures plain, then read turns, one kind after the other. */
async function eachKind<T>(
  measure: (kind: DevTurnKind) => Promise<T>,
): Promise<Record<DevTurnKind, T>> {
  const plain = await measure("plain");
  const read = await measure("read");
  return { plain, read };
}
