import { createRequire } from "node:module";
import type { BenchLifecycle } from "../bench-lifecycle.js";
import type { BenchResources } from "../bench-resources.js";
import { count, ms } from "../format-numbers.js";
import type { AgentTurnSettings } from "../turns/turn-results.js";
import {
  measureRestateConcurrent,
  measureRestateSequential,
  type RestateSequentialResult,
} from "./measure-restate-turns.js";
import {
  startRestateDeployment,
  stopRestateDeployment,
  type RestateDeployment,
} from "./restate-deployment.js";
import type { RestateConcurrentRun, RestateResults } from "./restate-results.js";
import { RestateUnavailableError } from "./restate-unavailable-error.js";
import type { RestateTurnKind } from "./turn-object.js";

/** Options of {@link runRestatePhase}. */
export interface RestatePhaseOptions {
  readonly resources: BenchResources;
  readonly progress: BenchLifecycle["progress"];
  readonly attempt: BenchLifecycle["attempt"];
  /** The Troupe rows' settings: the same sessions, warm-up, samples and windows are used. */
  readonly settings: AgentTurnSettings;
  /** The concurrent runs, e.g. `plain` and `oneTool` at 100 and 200 in flight. */
  readonly concurrentRuns: readonly { readonly kind: RestateTurnKind; readonly inFlight: number }[];
  /** Longest start of `restate-server`, of the endpoint, and of the registration, each, in ms. */
  readonly readyTimeoutMs: number;
  /** Longest wait for one turn, in ms. */
  readonly turnTimeoutMs: number;
}

/** The user message of each handler: the same bytes as our plain and one-tool turns send. */
const kindTexts = (settings: AgentTurnSettings): Record<RestateTurnKind, string> => ({
  plain: settings.texts.plain,
  oneTool: settings.texts.read,
});

/**
 * The Restate phase of the agent-turn benchmark: starts `restate-server` and
 * the `turn` endpoint (`startRestateDeployment`), measures sequential `plain`
 * and `oneTool` turns with the Troupe rows' counts, then the concurrent runs
 * with their warm-up and window, and stops everything. A phase that fails is
 * recorded by `attempt` (as the Troupe phases are).
 *
 * @param options - resources, lifecycle parts, settings, runs and deadlines.
 * @returns the measurements, or `skipped` with the reason when Restate cannot
 *   start here (the benchmark goes on and succeeds).
 */
export async function runRestatePhase(options: RestatePhaseOptions): Promise<RestateResults> {
  const { resources, progress, attempt, settings } = options;
  const texts = kindTexts(settings);
  let deployment: RestateDeployment;
  try {
    deployment = await startRestateDeployment({
      readyTimeoutMs: options.readyTimeoutMs,
      turnTimeoutMs: options.turnTimeoutMs,
      resources,
    });
  } catch (error) {
    const reason = RestateUnavailableError.isInstance(error)
      ? error.reason
      : `did not start: ${error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)}`;
    progress(`Restate: skipped — ${reason}`);
    return { status: "skipped", reason };
  }
  try {
    progress(`Restate: ${deployment.server.version} at ${deployment.server.ingressUrl}`);
    const sequential: Record<RestateTurnKind, RestateSequentialResult | undefined> = {
      plain: undefined,
      oneTool: undefined,
    };
    for (const kind of ["plain", "oneTool"] as const) {
      progress(`Restate (${kind}) sequential turns`);
      sequential[kind] = await attempt(`Restate sequential ${kind} turns`, async () => {
        const result = await measureRestateSequential(deployment, {
          prefix: `restate-seq-${kind}`,
          kind,
          text: texts[kind],
          sessions: settings.sequentialSessions,
          warmupTurns: settings.sequentialWarmupTurns,
          samples: settings.sequentialSamples,
        });
        progress(
          `  p50 ${ms(result.latency.p50Ms)} / p99 ${ms(result.latency.p99Ms)} ms, CPU ${ms(result.cpu.totalMs ?? Number.NaN)} ms per turn`,
        );
        return result;
      });
    }
    const concurrent: RestateConcurrentRun[] = [];
    for (const { kind, inFlight } of options.concurrentRuns) {
      progress(`Restate (${kind}) turns, ${inFlight} keys in flight`);
      const result = await attempt(
        `Restate concurrent ${kind} turns, ${inFlight} in flight`,
        async () => {
          const measured = await measureRestateConcurrent(deployment, {
            prefix: `restate-con-${kind}-${inFlight}`,
            kind,
            text: texts[kind],
            inFlight,
            warmupMs: settings.concurrentWarmupMs,
            windowMs: settings.concurrentWindowMs,
            maxWindowMs: 30_000,
          });
          progress(
            `  ${count(measured.turnsPerSecond)} turns/s, p50 ${ms(measured.latency.p50Ms)} ms, CPU ${ms(measured.cpu.totalMs ?? Number.NaN)} ms per turn`,
          );
          return measured;
        },
      );
      concurrent.push({ kind, inFlight, result });
    }
    return {
      status: "measured",
      serverVersion: deployment.server.version,
      sdkVersion: restateSdkVersion(),
      sequential,
      concurrent,
    };
  } finally {
    await stopRestateDeployment(deployment, resources);
  }
}

function restateSdkVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = require("@restatedev/restate-sdk/package.json") as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
