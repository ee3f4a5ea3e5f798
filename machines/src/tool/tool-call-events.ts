import {
  type MessageSchemas,
  type ToolCancel,
  type ToolStart,
  toolCancelSchema,
  toolStartSchema,
} from "@troupe/protocol";
import type { EffectCompletedEvent, EffectFailedEvent } from "../host-actions/host-actions.js";
import type { InboxEvent } from "../host-actions/inbox-event.js";

/**
 * Events of {@link toolCallMachine}: messages from the run actor
 * (`tool.start`, `tool.cancel`) and the result of its `tool.execute` effect
 * (`effect.completed`, `effect.failed`).
 */
export type ToolCallEvent =
  | InboxEvent<"tool.start", ToolStart>
  | InboxEvent<"tool.cancel", ToolCancel>
  | EffectCompletedEvent
  | EffectFailedEvent;

/**
 * The message schemas a host registers for the `tool` kind (the host adds its
 * own `effect.*` and `timer.fired`).
 */
export const toolMessageSchemas = {
  "tool.start": toolStartSchema,
  "tool.cancel": toolCancelSchema,
} as const satisfies MessageSchemas;

/** `tool.failed` error code when the tool threw (status `failed`). */
export const TOOL_FAILED_CODE = "tool_failed";
/** `tool.failed` error code when the arguments or the tool were not valid (status `invalid_arguments`). */
export const INVALID_ARGUMENTS_CODE = "invalid_arguments";
/** `tool.failed` error code when `tool.execute` returned something that is not a `{ status, content, truncated? }` output. */
export const INVALID_TOOL_OUTPUT_CODE = "invalid_tool_output";
