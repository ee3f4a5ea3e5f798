import type { ClosedLoopWindow } from "../turns/closed-loop-window.js";
import type { RestateSequentialResult } from "./measure-restate-turns.js";
import type { RestateTurnKind } from "./turn-object.js";

/** One concurrent Restate run: a handler at a number of keys in flight. */
export interface RestateConcurrentRun {
  readonly kind: RestateTurnKind;
  readonly inFlight: number;
  /** Undefined when the run failed. */
  readonly result: ClosedLoopWindow | undefined;
}

/** The Restate phase when it ran. */
export interface RestateMeasured {
  readonly status: "measured";
  /** `restate-server --version`, e.g. `restate-server 1.7.12`. */
  readonly serverVersion: string;
  /** Version of `@restatedev/restate-sdk` serving the endpoint, e.g. `1.17.2`. */
  readonly sdkVersion: string;
  /** Undefined where the run failed. */
  readonly sequential: Readonly<Record<RestateTurnKind, RestateSequentialResult | undefined>>;
  readonly concurrent: readonly RestateConcurrentRun[];
}

/** The Restate phase when Restate could not start here. */
export interface RestateSkipped {
  readonly status: "skipped";
  /** One line, e.g. `no restate-server binary for linux-arm`. */
  readonly reason: string;
}

/** What the Restate phase of the agent-turn benchmark found. */
export type RestateResults = RestateMeasured | RestateSkipped;
