/**
 * Gateway benchmark (issue #16): what the HTTP gateway adds to a turn, and how
 * its SSE fans out. One bench agent host child process (the zero-latency
 * scripted agent) and one `troupe gateway` child process on local NATS
 * JetStream and Redis; this process is the client. Measures, with p50/p99:
 * publish → first event / first byte and a full turn through the gateway
 * (`POST /v1/sessions/:id/messages` + `GET /v1/sessions/:id/events`,
 * `POST /api/chat`) beside the same through `TroupeClient` directly; the floors
 * (NATS request/reply, JetStream publish → consume, an HTTP round trip to the
 * gateway); and N concurrent SSE followers of one session (delivery latency,
 * gateway CPU and RSS, missing events, cut connections). Prints the Markdown
 * report and writes it to its section of `latest-results.md` beside this file.
 *
 * Run with `npm run bench:gateway` (from the repository root; `npm run bench`
 * runs it after the other two). It stops by itself within {@link timeLimitMs},
 * tearing down every process it started; the exit code is 1 when a phase
 * failed. `--quick` runs every phase much smaller, as a smoke test;
 * `--only=floors,turns,fan-out` runs only the phases named (neither writes
 * `latest-results.md`).
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { TroupeClient } from "@troupe/client";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import { ms } from "./format-numbers.js";
import { startGatewayProcess } from "./gateway/gateway-process.js";
import {
  renderGatewayReport,
  type FanOutRun,
  type GatewayBenchResults,
  type GatewayBenchSettings,
} from "./gateway/gateway-report.js";
import { measureFanOut, type FanOutVia } from "./gateway/measure-fan-out.js";
import { measureFloors, type GatewayFloors } from "./gateway/measure-floors.js";
import { measureGatewayTurns } from "./gateway/measure-gateway-turns.js";
import { collectMachineFacts, type MachineFacts } from "./machine-facts.js";
import { writeResultSection } from "./results-file.js";
import { threadCpuReader } from "./turns/thread-cpu.js";
import { startTurnDeployment } from "./turns/turn-deployment.js";

/** `--quick`: every phase much smaller; its figures are not written to `latest-results.md`. */
const quick = process.argv.includes("--quick");
/** The whole run must end within this, in ms; then everything is torn down and the exit code is 1. */
const timeLimitMs = 600_000;
const turnTimeoutMs = 30_000;
const settings: GatewayBenchSettings = {
  text: "hello",
  sessionsPerPath: 10,
  warmupRounds: quick ? 5 : 20,
  rounds: quick ? 40 : 300,
  floorSamples: quick ? 200 : 1_000,
  fanOutTurns: quick ? 5 : 20,
  quick,
};
const fanOutLevels: readonly { via: FanOutVia; followers: number }[] = [
  ...(quick ? [1, 10, 100] : [1, 10, 100, 500]).map((followers) => ({
    via: "gateway" as const,
    followers,
  })),
  ...(quick ? [1, 100] : [1, 100, 500]).map((followers) => ({ via: "client" as const, followers })),
];
/** `--only=floors,turns,fan-out`: run only these phases (default: all). */
const only = process.argv
  .find((argument) => argument.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const runs = (phase: "floors" | "turns" | "fan-out") => only === undefined || only.includes(phase);
/** With this set, the gateway process writes a CPU profile into that folder when it stops. */
const gatewayProfileDir = process.env.TROUPE_BENCH_GATEWAY_CPU_PROFILE_DIR;
const resultsFile = fileURLToPath(new URL("./latest-results.md", import.meta.url));

const { resources, startedAtMs, progress, attempt, errors, sweepLeftovers, runToEnd } =
  startBenchLifecycle("bench:gateway", timeLimitMs);

async function run(): Promise<number> {
  let facts: MachineFacts | undefined;
  let floors: GatewayFloors | undefined;
  let turns: GatewayBenchResults["turns"];
  const fanOut: FanOutRun[] = [];
  const deployment = await attempt("start host", () =>
    startTurnDeployment({ name: "gateway", shardCount: 64, turnTimeoutMs, resources }),
  );
  const { natsUrl, redisUrl } = deployment?.cluster.servers ?? {};
  const gateway =
    natsUrl === undefined || redisUrl === undefined
      ? undefined
      : await attempt("start troupe gateway", async () =>
          resources.track(
            await startGatewayProcess(
              natsUrl,
              redisUrl,
              60_000,
              gatewayProfileDir === undefined || gatewayProfileDir === ""
                ? []
                : ["--cpu-prof", `--cpu-prof-dir=${gatewayProfileDir}`],
            ),
            (g) => g.stop(),
          ),
        );
  if (deployment !== undefined && gateway !== undefined && natsUrl !== undefined) {
    progress(`troupe gateway serving ${gateway.url} (pid ${gateway.pid})`);
    const { cluster, host } = deployment;
    facts = await collectMachineFacts(cluster.nats, cluster.redis);
    const client = resources.track(await TroupeClient.connect({ natsUrl }), (c) => c.close());
    const local = cluster.servers.local;
    const readCpu = threadCpuReader({
      gateway: gateway.pid,
      host: host.pid,
      ...(local === undefined
        ? {}
        : { "nats-server": local.nats.pid, "redis-server": local.redis.pid }),
    });

    if (runs("floors"))
      progress("floors: NATS request/reply, JetStream publish → consume, HTTP to the gateway");
    floors = !runs("floors")
      ? undefined
      : await attempt("floors", async () => {
          const measured = await measureFloors({
            nats: cluster.nats,
            natsUrl,
            gatewayUrl: gateway.url,
            samples: settings.floorSamples,
            warmup: 100,
            timeoutMs: 5_000,
          });
          progress(
            `  request/reply p50 ${ms(measured.natsRequestReply.p50Ms)}, JetStream ${ms(measured.jetStreamPublishConsume.p50Ms)}, HTTP ${ms(measured.gatewayHttpRoundTrip.p50Ms)} ms`,
          );
          return measured;
        });

    if (runs("turns"))
      progress(`turns: ${settings.rounds} rounds of client, sendAndWait, REST + SSE, /api/chat`);
    turns = !runs("turns")
      ? undefined
      : await attempt("turns through the gateway and the client", async () => {
          const measured = await measureGatewayTurns({
            client,
            gatewayUrl: gateway.url,
            text: settings.text,
            sessions: settings.sessionsPerPath,
            warmupRounds: settings.warmupRounds,
            rounds: settings.rounds,
            turnTimeoutMs,
            progress,
          });
          errors.push(...measured.errors);
          for (const [path, result] of Object.entries(measured.paths)) {
            progress(
              `  ${path}: first p50 ${result.first === undefined ? "—" : ms(result.first.p50Ms)}, turn p50 ${ms(result.turn.p50Ms)} / p99 ${ms(result.turn.p99Ms)} ms`,
            );
          }
          return measured;
        });

    for (const { via, followers } of runs("fan-out") ? fanOutLevels : []) {
      progress(`fan-out: ${followers} followers of one session via ${via}`);
      const result = await attempt(`fan-out to ${followers} followers via ${via}`, async () => {
        const measured = await measureFanOut({
          client,
          nats: cluster.nats,
          gatewayUrl: gateway.url,
          gatewayPid: gateway.pid,
          via,
          followers,
          turns: settings.fanOutTurns,
          text: settings.text,
          turnTimeoutMs,
          settleTimeoutMs: 15_000,
          readCpu,
        });
        progress(
          `  delivery p50 ${measured.delivery === undefined ? "—" : ms(measured.delivery.p50Ms)} / p99 ${measured.delivery === undefined ? "—" : ms(measured.delivery.p99Ms)} ms, missing ${measured.missing}, cut ${measured.cut}, open failures ${measured.openFailures}`,
        );
        return measured;
      });
      fanOut.push({ via, followers, result });
    }
  }

  await resources.releaseAll();
  const leftover = await sweepLeftovers();
  if (leftover !== undefined) errors.push(leftover);
  const results: GatewayBenchResults = {
    facts,
    loadAverageAtEnd1m: loadavg()[0] ?? 0,
    settings,
    floors,
    turns,
    fanOut,
    phases: (["floors", "turns", "fan-out"] as const).filter(runs),
    errors,
    durationMs: performance.now() - startedAtMs,
  };
  const report = renderGatewayReport(results);
  process.stdout.write(`\n${report}`);
  if (quick || only !== undefined) progress("--quick or --only: latest-results.md left as it was");
  else {
    await writeResultSection(resultsFile, "gateway", report);
    progress(`wrote ${resultsFile}`);
  }
  return errors.length === 0 ? 0 : 1;
}

await runToEnd(run);
