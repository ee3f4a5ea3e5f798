import type { MachineFacts } from "../machine-facts.js";
import type { RestateResults } from "../restate/restate-results.js";
import type { ConcurrentTurnsResult } from "./measure-concurrent-turns.js";
import type { DevTurnKind } from "./dev-turn-kinds.js";
import type { DevTurnsResult } from "./measure-dev-turns.js";
import type { LongSessionResult } from "./measure-long-session.js";
import type { ManySessionsResult } from "./measure-many-sessions.js";
import type { NewSessionTurnsResult } from "./measure-new-session-turns.js";
import type { RawFloor } from "./measure-raw-floor.js";
import type { SequentialTurnsResult } from "./measure-sequential-turns.js";

/** The turn types of the benchmark: `hello`, one read tool, one auto-allowed write tool. */
export type TurnKind = "plain" | "read" | "write";

/** A concurrent run of one turn kind at one number of sessions in flight. */
export interface ConcurrentRun {
  readonly kind: TurnKind;
  readonly inFlight: number;
  /** Undefined when the phase failed. */
  readonly result: ConcurrentTurnsResult | undefined;
}

/** How the run was configured (for the notes). */
export interface AgentTurnSettings {
  readonly shardCount: number;
  readonly sequentialSessions: number;
  readonly sequentialWarmupTurns: number;
  readonly sequentialSamples: number;
  readonly longSessionMessages: number;
  readonly longSessionWindow: number;
  readonly concurrentWarmupMs: number;
  readonly concurrentWindowMs: number;
  readonly manySessionsPassivateAfterMs: number;
  readonly manySessionsMaxActiveActors: number;
  readonly texts: Readonly<Record<TurnKind, string>>;
}

/** Everything one agent-turn benchmark run measured (a part is missing when its phase failed). */
export interface AgentTurnResults {
  readonly facts: MachineFacts | undefined;
  readonly loadAverageAtEnd1m: number;
  readonly settings: AgentTurnSettings;
  readonly rawFloor: RawFloor | undefined;
  readonly sequential: Readonly<Record<TurnKind, SequentialTurnsResult | undefined>>;
  readonly longSession: LongSessionResult | undefined;
  readonly concurrent: readonly ConcurrentRun[];
  readonly manySessions: ManySessionsResult | undefined;
  /**
   * The bare host's turns to a new session each with `TroupeClient.sendAndWait`,
   * beside row (g)'s; absent when not run, a kind undefined when it failed.
   */
  readonly newSession?: Readonly<Record<DevTurnKind, NewSessionTurnsResult | undefined>>;
  /** Row (g): turns through `troupe dev`; absent when not run, undefined when the phase failed. */
  readonly troupeDev?: DevTurnsResult | undefined;
  /** Restate side by side (`../restate/`): absent when not run; `skipped` with the reason when it could not start. */
  readonly restate?: RestateResults | undefined;
  readonly errors: readonly string[];
  readonly durationMs: number;
}
