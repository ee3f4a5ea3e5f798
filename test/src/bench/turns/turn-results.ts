import type { MachineFacts } from "../machine-facts.js";
import type { ConcurrentTurnsResult } from "./measure-concurrent-turns.js";
import type { LongSessionResult } from "./measure-long-session.js";
import type { ManySessionsResult } from "./measure-many-sessions.js";
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
  readonly errors: readonly string[];
  readonly durationMs: number;
}
