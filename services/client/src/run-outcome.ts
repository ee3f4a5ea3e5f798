import type { Usage } from "@troupe/protocol";

/**
 * How a run ended, as `waitForRun` and `sendAndWait` report it.
 *
 * Shape, by `status`:
 * - `"completed"`: `{ runId, text, usage: { inputTokens, outputTokens }, sequence }`
 *   from `run.completed`;
 * - `"failed"`: `{ runId, code, message, sequence }` from `run.failed` (`code`
 *   is the run's error code, e.g. `model_error`);
 * - `"cancelled"`: `{ runId, partialText?, reason?, usage, sequence }` from
 *   `run.cancelled`.
 *
 * `sequence` is the events-stream sequence of that final event (resume
 * `events()` at `sequence + 1` to see what happened next).
 */
export type RunOutcome =
  | {
      readonly status: "completed";
      readonly runId: string;
      readonly text: string;
      readonly usage: Usage;
      readonly sequence: number;
    }
  | {
      readonly status: "failed";
      readonly runId: string;
      readonly code: string;
      readonly message: string;
      readonly sequence: number;
    }
  | {
      readonly status: "cancelled";
      readonly runId: string;
      readonly partialText?: string;
      readonly reason?: string;
      readonly usage: Usage;
      readonly sequence: number;
    };
