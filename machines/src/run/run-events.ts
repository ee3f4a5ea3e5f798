import {
  runCompactSchema,
  runCancelSchema,
  runStartSchema,
  runSteerSchema,
  toolFinishedSchema,
} from "@troupe/protocol";
import type {
  EffectCompletedEvent,
  EffectFailedEvent,
  MessageSchemas,
  RunCancel,
  RunStart,
  RunSteer,
  ToolFinished,
  InboxEvent,
} from "@troupe/protocol";

/**
 * Events of {@link runMachine}: messages from the session (`run.start`,
 * `run.cancel`, `run.steer`), results of its tool calls from their tool call
 * actors (`tool.finished`) and the results of its model calls
 * (`effect.completed`, `effect.failed`).
 */
export type RunEvent =
  | InboxEvent<"run.start", RunStart>
  | InboxEvent<"run.cancel", RunCancel>
  | InboxEvent<"run.steer", RunSteer>
  | InboxEvent<"tool.finished", ToolFinished>
  // `RunCompact` is `{}` as a zod output (`Record<string, never>`); no fields to add.
  | InboxEvent<"run.compact", object>
  | EffectCompletedEvent
  | EffectFailedEvent;

/**
 * The message schemas a host registers for the `run` kind (the host adds its own
 * `effect.*` and `timer.fired`).
 */
export const runMessageSchemas = {
  "run.start": runStartSchema,
  "run.cancel": runCancelSchema,
  "run.steer": runSteerSchema,
  "tool.finished": toolFinishedSchema,
  "run.compact": runCompactSchema,
} as const satisfies MessageSchemas;

/** Code of `run.failed` when a model call returned something that is not a model call output. */
export const INVALID_MODEL_OUTPUT_CODE = "invalid_model_output";
